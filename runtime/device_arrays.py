"""Arrays already in GPU memory, as arguments and as results (issue 19, item 5).

An argument may be any object that describes GPU memory by the CUDA Array Interface
(`__cuda_array_interface__`, versions 2 and 3: CuPy, PyTorch, Numba, JAX) or exports it
by DLPack (`__dlpack__` and `__dlpack_device__`, versions before 1.0 and 1.x): it is
taken where it is, without a copy to the host, as a `ForeignDeviceArray` (its address,
shape, dtype and strides, and what keeps the memory alive). A DLPack tensor in host
memory (a CPU PyTorch tensor) is read by NumPy (`np.from_dlpack`), as a NumPy array. A result may
be returned as a `DeviceArray`, which describes soacc's own device memory by the same
interface, so CuPy (`cupy.asarray`), PyTorch (`torch.as_tensor`) and Numba take it
without a copy either.

Pure Python, NumPy and ctypes (DLPack's structs): nothing here imports PyCUDA (the tools describe and check these
arrays before any device is touched).
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from soacc.runtime.errors import ArgumentError
from soacc.runtime.gpu.arrays import dense_strides

LEGACY_DEFAULT_STREAM = 1
"""The interface's name for the legacy default stream, which soacc's own work is
ordered with (it runs on it, in the device's primary context)."""


class _Shaped:
    """What an array with `shape` tells of its size."""

    __slots__ = ()
    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class ForeignDeviceArray(_Shaped):
    """An argument in GPU memory that soacc did not allocate: element (i, j, ...) is at
    `address + (i*strides[0] + j*strides[1] + ...) * itemsize`."""

    __slots__ = ("owner", "address", "shape", "dtype", "strides", "stream", "readonly")

    def __init__(self, owner: Any, address: int, shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...], stream: int | None, readonly: bool):
        self.owner = owner
        """The caller's object (its memory lives as long as it does)."""
        self.address = address
        self.shape = shape
        self.dtype = dtype
        self.strides = strides
        """In elements."""
        self.stream = stream
        """The stream the producer's work on the data is queued on (interface version 3),
        which a consumer must wait for; None: the data is ready."""
        self.readonly = readonly


    def __repr__(self) -> str:
        return f"ForeignDeviceArray({self.dtype.name}, shape {list(self.shape)}, at {self.address:#x})"


def has_device_interface(value: Any) -> bool:
    """Whether `value` says it is in GPU memory (NumPy arrays never do)."""
    if isinstance(value, np.ndarray):
        return False
    try:
        return hasattr(value, "__cuda_array_interface__")
    except Exception:  # a property that fails otherwise than by AttributeError
        return True  # (foreign_device_array reports the failure)


def device_interface(value: Any) -> dict | None:
    """`value`'s `__cuda_array_interface__`, read once (a property: CuPy's makes a new
    dict each time), or None where it has none; an ArgumentError where reading it fails
    otherwise than by AttributeError (the producer's own refusal)."""
    if isinstance(value, np.ndarray):
        return None
    try:
        return getattr(value, "__cuda_array_interface__", None)
    except Exception as error:
        raise ArgumentError(f"{type(value).__name__}'s __cuda_array_interface__ failed: {error}") from None


def foreign_device_array(value: Any, interface: dict | None = None) -> ForeignDeviceArray:
    """The array `value`'s `__cuda_array_interface__` (`interface`, where the caller has
    read it) describes; an ArgumentError says what is wrong with a description soacc
    cannot take (a mask, strides that are not whole elements, an unknown element type)."""
    if interface is None:
        interface = device_interface(value)
        if interface is None:
            raise ArgumentError(f"{type(value).__name__} has no __cuda_array_interface__")
    what = f"{type(value).__name__} (by __cuda_array_interface__)"
    if not isinstance(interface, dict):
        raise ArgumentError(f"{what}: the interface is a {type(interface).__name__}, not a dict")
    try:
        shape = tuple(int(n) for n in interface["shape"])
        dtype = np.dtype(interface["typestr"])
        address, readonly = interface["data"]
        version = int(interface.get("version", 0))
    except (KeyError, TypeError, ValueError) as error:
        raise ArgumentError(f"{what}: an incomplete description ({type(error).__name__}: {error})") from None
    if version < 2:
        raise ArgumentError(f"{what}: version {version} of the interface; soacc reads versions 2 and 3")
    if interface.get("mask") is not None:
        raise ArgumentError(f"{what}: a masked array; soacc takes arrays without a mask")
    if dtype.kind not in "biuf" or dtype.byteorder == ">":
        raise ArgumentError(f"{what}: elements of type {interface['typestr']!r}, which no soacc type has")
    if any(n < 0 for n in shape):
        raise ArgumentError(f"{what}: a negative size in shape {list(shape)}")
    byte_strides = interface.get("strides")
    if byte_strides is None:
        strides = dense_strides(shape)
    else:
        byte_strides = tuple(int(s) for s in byte_strides)
        if len(byte_strides) != len(shape) or any(s % dtype.itemsize for s in byte_strides):
            raise ArgumentError(f"{what}: strides {list(byte_strides)} in bytes are not whole elements of {dtype.itemsize} bytes for shape {list(shape)}")
        strides = tuple(s // dtype.itemsize for s in byte_strides)
    stream = interface.get("stream")
    if stream is not None:
        stream = int(stream)
        if stream == 0:
            raise ArgumentError(f"{what}: stream 0, which the interface forbids (ambiguous)")
    address = int(address or 0)
    if address == 0 and all(shape):
        raise ArgumentError(f"{what}: a null pointer for a non-empty array")
    return ForeignDeviceArray(value, address, shape, dtype, strides, stream, bool(readonly))


class DeviceArray(_Shaped):
    """A result left in soacc's device memory (`soacc.compile(..., results="device")`):
    shape, dtype, the CUDA Array Interface (version 3; the data is ready: soacc waited
    for its work before returning it), and `numpy()` for a copy on the host. It keeps
    its memory (a block of soacc's pool) until it dies."""

    __slots__ = ("_block", "_address", "shape", "dtype", "strides", "_copy_to_host", "device_id", "__weakref__")

    def __init__(
        self, block: Any, address: int, shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...], copy_to_host,
        device_id: int = 0,
    ):
        self._block = block
        self._address = address
        self.device_id = device_id
        """The CUDA device it is on."""
        self.shape = shape
        self.dtype = dtype
        self.strides = strides
        """In elements."""
        self._copy_to_host = copy_to_host


    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def __cuda_array_interface__(self) -> dict:
        itemsize = self.dtype.itemsize
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self._address if self.size else 0, False),
            "strides": tuple(s * itemsize for s in self.strides),
            "version": 3,
            "stream": None,
        }

    def numpy(self) -> np.ndarray:
        """A copy on the host, as a NumPy array."""
        return self._copy_to_host(self)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (DLPACK_CUDA, self.device_id)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this array's memory (JAX, PyTorch and CuPy take it by
        their `from_dlpack`). Its data is ready: soacc waited for the device before
        returning it, so no stream need wait. The capsule keeps the array alive until
        the consumer (or the capsule, unconsumed) calls its deleter."""
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"a soacc.DeviceArray is on CUDA device {self.device_id}; it cannot be exported to {tuple(dl_device)}")
        if copy:
            raise BufferError("a soacc.DeviceArray exports its own memory (copy=True is not supported)")
        return _export_dlpack(self)

    def __repr__(self) -> str:
        return f"soacc.DeviceArray({self.dtype.name}, shape {list(self.shape)})"


# --- DLPack -------------------------------------------------------------------------------

DLPACK_CPU, DLPACK_CUDA, DLPACK_CUDA_HOST, DLPACK_CUDA_MANAGED = 1, 2, 3, 13
"""DLPack's device types soacc takes: host memory (read by NumPy), GPU memory."""

_DLPACK_CODES = {0: "i", 1: "u", 2: "f", 6: "b"}
"""DLPack's type codes of the element types soacc has (int, uint, float, bool)."""


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLManagedTensor._fields_ = [
    ("dl_tensor", _DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))),
]


class _DLManagedTensorVersioned(ctypes.Structure):
    pass


_DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32),
    ("minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensorVersioned))),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", _DLTensor),
]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_set_name = ctypes.pythonapi.PyCapsule_SetName
_capsule_set_name.restype = ctypes.c_int
_capsule_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]


class DLPackTensor:
    """A DLPack tensor this process consumed: it keeps the producer's memory alive
    until it dies, and then calls the producer's deleter (DLPack's rule for consumers)."""

    def __init__(self, capsule, managed, producer):
        self._capsule = capsule
        self._managed = managed
        self.producer = producer

    def __del__(self) -> None:
        managed = self._managed
        self._managed = None
        if managed is not None and managed.contents.deleter:
            try:
                managed.contents.deleter(managed)
            except Exception:
                pass


def has_dlpack(value: Any) -> bool:
    return not isinstance(value, np.ndarray) and hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__")


def dlpack_device_type(value: Any) -> int:
    try:
        device_type, _ = value.__dlpack_device__()
        return int(device_type)
    except Exception as error:
        raise ArgumentError(f"{type(value).__name__}'s __dlpack_device__ failed: {error}") from None


def dlpack_device_array(value: Any) -> ForeignDeviceArray:
    """The GPU array `value` exports by DLPack (its `__dlpack__`, asked for the legacy
    default stream, which soacc's work is ordered with, so the producer orders its own
    work before it). The capsule is consumed: renamed `used_dltensor*` and its deleter
    called when the array is dropped."""
    what = f"{type(value).__name__} (by DLPack)"
    try:
        try:
            capsule = value.__dlpack__(stream=LEGACY_DEFAULT_STREAM, max_version=(1, 0))
        except TypeError:  # a producer of DLPack before 1.0: no max_version
            capsule = value.__dlpack__(stream=LEGACY_DEFAULT_STREAM)
    except Exception as error:
        raise ArgumentError(f"{what}: __dlpack__ failed: {error}") from None
    return _from_capsule(capsule, value, what)


def _from_capsule(capsule, producer: Any, what: str) -> ForeignDeviceArray:
    if _capsule_is_valid(capsule, b"dltensor_versioned"):
        managed = ctypes.cast(_capsule_pointer(capsule, b"dltensor_versioned"), ctypes.POINTER(_DLManagedTensorVersioned))
        if managed.contents.major != 1:
            raise ArgumentError(f"{what}: DLPack version {managed.contents.major}.{managed.contents.minor}; soacc reads 1.x")
        readonly = bool(managed.contents.flags & 1)  # DLPACK_FLAG_BITMASK_READ_ONLY
        used = b"used_dltensor_versioned"
    elif _capsule_is_valid(capsule, b"dltensor"):
        managed = ctypes.cast(_capsule_pointer(capsule, b"dltensor"), ctypes.POINTER(_DLManagedTensor))
        readonly = False
        used = b"used_dltensor"
    else:
        raise ArgumentError(f"{what}: __dlpack__ gave no DLPack capsule")
    tensor = managed.contents.dl_tensor
    # consumed from here on: the holder calls the deleter, whatever happens next
    _capsule_set_name(capsule, used)
    holder = DLPackTensor(capsule, managed, producer)
    kind, bits, lanes = _DLPACK_CODES.get(tensor.dtype.code), tensor.dtype.bits, tensor.dtype.lanes
    if kind is None or lanes != 1 or (kind == "b" and bits != 8) or bits % 8:
        raise ArgumentError(f"{what}: elements of DLPack type (code {tensor.dtype.code}, {bits} bits, {lanes} lanes), which no soacc type has")
    dtype = np.dtype(np.bool_) if kind == "b" else np.dtype(f"{kind}{bits // 8}")
    ndim = tensor.ndim
    shape = tuple(int(tensor.shape[i]) for i in range(ndim))
    strides = tuple(int(tensor.strides[i]) for i in range(ndim)) if tensor.strides else dense_strides(shape)
    if any(n < 0 for n in shape):
        raise ArgumentError(f"{what}: a negative size in shape {list(shape)}")
    address = int(tensor.data or 0) + int(tensor.byte_offset)
    if address == 0 and all(shape):
        raise ArgumentError(f"{what}: a null pointer for a non-empty array")
    return ForeignDeviceArray(holder, address, shape, dtype, strides, None, readonly)


# --- DLPack export (DeviceArray.__dlpack__) ---------------------------------------------

_DLPACK_EXPORT_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}
_EXPORTED: dict[int, tuple] = {}
"""Address of each exported DLManagedTensor -> what it keeps alive (the struct, its
shape and strides, the array), until its deleter runs."""


def _delete_exported(managed) -> None:
    _EXPORTED.pop(ctypes.addressof(managed.contents), None)


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))(_delete_exported)
_CAPSULE_NAME = b"dltensor"
_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# (the destructor gets the dying capsule as a raw pointer: making it a Python object
# again, with a reference, in its own deallocation would free it twice)
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", ctypes.pythonapi))
_raw_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))


def _capsule_destroyed(capsule: int) -> None:
    # an unconsumed capsule (still named "dltensor") deletes its tensor; a consumer
    # renames it and calls the deleter itself
    if _raw_is_valid(capsule, _CAPSULE_NAME):
        _EXPORTED.pop(_raw_pointer(capsule, _CAPSULE_NAME), None)


_DESTRUCTOR = _CapsuleDestructor(_capsule_destroyed)
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _CapsuleDestructor]


def _export_dlpack(array: DeviceArray):
    managed = _DLManagedTensor()
    ndim = array.ndim
    shape = (ctypes.c_int64 * max(ndim, 1))(*array.shape)
    strides = (ctypes.c_int64 * max(ndim, 1))(*array.strides)
    tensor = managed.dl_tensor
    tensor.data = array._address if array.size else 0
    tensor.device = _DLDevice(DLPACK_CUDA, array.device_id)
    tensor.ndim = ndim
    tensor.dtype = _DLDataType(_DLPACK_EXPORT_CODES[array.dtype.kind], array.dtype.itemsize * 8, 1)
    tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    tensor.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    tensor.byte_offset = 0
    managed.manager_ctx = None
    managed.deleter = _DELETER
    address = ctypes.addressof(managed)
    _EXPORTED[address] = (managed, shape, strides, array)
    return _capsule_new(address, _CAPSULE_NAME, _DESTRUCTOR)
