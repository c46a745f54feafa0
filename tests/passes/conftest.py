"""The memory passes' tests share memory_util (level-2 functions from source) and
random_memory_programs (the seeded program generator); pytest puts this folder on sys.path."""
