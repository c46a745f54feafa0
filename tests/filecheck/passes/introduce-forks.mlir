// RUN: soacc-opt %s -p 'introduce-forks{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BASIC
// RUN: soacc-opt %s -p 'introduce-forks{report=true trivial=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=TRIVIAL
// RUN: soacc-opt %s -p 'introduce-forks{report=true combine=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=COMBINE
// RUN: soacc-opt %s -p 'introduce-forks{report=true fork-returns=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=RETURNS
// RUN: soacc-opt %s -p 'introduce-forks{report=true trivial=true combine=true fork-returns=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=ALL
// RUN: soacc-opt %s -p 'introduce-forks' | filecheck %s
// RUN: soacc-opt %s -p 'introduce-forks{trivial=true combine=true fork-returns=true}' | filecheck %s --check-prefix=ALL-IR
// RUN: soacc-opt %s -p 'introduce-forks{report=true loops=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=IN-TURN
// RUN: soacc-opt %s -p 'introduce-forks{report=true loops=false trivial=true combine=true fork-returns=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=IN-TURN-ALL
// RUN: soacc-opt %s -p 'introduce-forks{loops=false trivial=true combine=true fork-returns=true}' | filecheck %s --check-prefix=IN-TURN-IR
// RUN: soacc-opt %s -p 'introduce-forks{trivial=true combine=true fork-returns=true}' | soacc-opt | filecheck %s --check-prefix=VERIFIED
// RUN: soacc-opt %s -p 'introduce-forks{trivial=true combine=true fork-returns=true beside=true}' | filecheck %s --check-prefix=BESIDE

// The study's cases (Matser; digest 004 §10, B1-B9 and B13) at level 2, with each
// optimisation alone and all together. The counts are the report's: forks (helper
// threads apart), helpers, signals, references, the function's own destinations left
// out as the study leaves them out. At level 2 an array is a view of a block, so every
// `mem.view` is one let more than the study's program has: one fork (unless combined),
// one signal and one reference more than the digest's counts, said per case. The
// function's arguments are in scope (the study's inputs s0, s1 are ready at the call).

// B1 (basic): the digest's 2 forks, 3 signals, 1 reference, + the view
// BASIC: @example_4_13_1: 3 forks, 0 helpers, 4 signals, 2 references
// B2 (basic): 5 forks, 7 signals, 3 references, + two views
// BASIC-NEXT: @example_4_13_2: 7 forks, 0 helpers, 9 signals, 5 references
// B5 (b): `let y = 2 in return y` forks without the trivial optimisation
// BASIC-NEXT: @trivial_constant: 1 forks, 0 helpers, 1 signals, 1 references
// BASIC-NEXT: @alloc_then_fill: 3 forks, 0 helpers, 4 signals, 2 references
// BASIC-NEXT: @unit_let_does_not_combine: 2 forks, 0 helpers, 1 signals, 1 references
// BASIC-NEXT: @two_allocs: 5 forks, 0 helpers, 8 signals, 4 references
// B7: 3 forks + 1 helper, 5 signals, 1 reference, + the view
// BASIC-NEXT: @if_sub_environment: 4 forks, 1 helpers, 6 signals, 2 references
// B8: alloc, view, two writes
// BASIC-NEXT: @write_write: 4 forks, 0 helpers, 6 signals, 2 references
// BASIC-NEXT: @duplicate_return: 3 forks, 0 helpers, 4 signals, 2 references
// BASIC-NEXT: @if_results: 6 forks, 0 helpers, 12 signals, 5 references
// BASIC-NEXT: @loop: 6 forks, 0 helpers, 7 signals, 7 references
// BASIC-NEXT: @loop_of_two_kernels: 5 forks, 2 helpers, 9 signals, 2 references
// BASIC-NEXT: @loop_state_and_work: 7 forks, 0 helpers, 9 signals, 7 references

// B5 (a, b): what uses nothing is not forked: no signal, no reference
// TRIVIAL: @example_4_13_1: 3 forks, 0 helpers, 4 signals, 2 references
// TRIVIAL-NEXT: @example_4_13_2: 6 forks, 0 helpers, 8 signals, 4 references
// TRIVIAL-NEXT: @trivial_constant: 0 forks, 0 helpers, 0 signals, 0 references
// B5 (c): an allocation is not trivial
// TRIVIAL-NEXT: @alloc_then_fill: 3 forks, 0 helpers, 4 signals, 2 references
// TRIVIAL-NEXT: @unit_let_does_not_combine: 1 forks, 0 helpers, 0 signals, 0 references
// TRIVIAL-NEXT: @two_allocs: 5 forks, 0 helpers, 8 signals, 4 references
// TRIVIAL-NEXT: @if_sub_environment: 4 forks, 1 helpers, 6 signals, 2 references
// TRIVIAL-NEXT: @write_write: 4 forks, 0 helpers, 6 signals, 2 references
// TRIVIAL-NEXT: @duplicate_return: 3 forks, 0 helpers, 4 signals, 2 references
// TRIVIAL-NEXT: @if_results: 5 forks, 0 helpers, 11 signals, 4 references
// TRIVIAL-NEXT: @loop: 5 forks, 0 helpers, 6 signals, 6 references
// TRIVIAL-NEXT: @loop_of_two_kernels: 3 forks, 2 helpers, 7 signals, 0 references
// TRIVIAL-NEXT: @loop_state_and_work: 4 forks, 0 helpers, 6 signals, 4 references

// Combining keeps every signal and reference (the study removes none) and saves forks:
// alloc -> view -> map is one thread (B4, B6 ii); a let of nothing does not combine
// (B6 i); the first of two allocations does not combine (B6 iii: 4 forks of 5)
// COMBINE: @example_4_13_1: 1 forks, 0 helpers, 4 signals, 2 references
// COMBINE-NEXT: @example_4_13_2: 2 forks, 0 helpers, 9 signals, 5 references
// COMBINE-NEXT: @trivial_constant: 1 forks, 0 helpers, 1 signals, 1 references
// COMBINE-NEXT: @alloc_then_fill: 1 forks, 0 helpers, 4 signals, 2 references
// COMBINE-NEXT: @unit_let_does_not_combine: 2 forks, 0 helpers, 1 signals, 1 references
// COMBINE-NEXT: @two_allocs: 4 forks, 0 helpers, 8 signals, 4 references
// COMBINE-NEXT: @if_sub_environment: 2 forks, 1 helpers, 6 signals, 2 references
// B8: alloc and the first write combine, the two writes do not
// COMBINE-NEXT: @write_write: 2 forks, 0 helpers, 6 signals, 2 references
// COMBINE-NEXT: @duplicate_return: 1 forks, 0 helpers, 4 signals, 2 references
// COMBINE-NEXT: @if_results: 3 forks, 0 helpers, 12 signals, 5 references
// COMBINE-NEXT: @loop: 5 forks, 0 helpers, 7 signals, 7 references
// COMBINE-NEXT: @loop_of_two_kernels: 4 forks, 2 helpers, 9 signals, 2 references
// COMBINE-NEXT: @loop_state_and_work: 6 forks, 0 helpers, 9 signals, 7 references

// Fork returns: n returned values take n - 1 forks more (a binary tree)
// RETURNS: @example_4_13_1: 4 forks, 0 helpers, 4 signals, 2 references
// RETURNS-NEXT: @example_4_13_2: 10 forks, 0 helpers, 9 signals, 5 references
// RETURNS-NEXT: @trivial_constant: 1 forks, 0 helpers, 1 signals, 1 references
// RETURNS-NEXT: @alloc_then_fill: 3 forks, 0 helpers, 4 signals, 2 references
// RETURNS-NEXT: @unit_let_does_not_combine: 2 forks, 0 helpers, 1 signals, 1 references
// RETURNS-NEXT: @two_allocs: 6 forks, 0 helpers, 8 signals, 4 references
// RETURNS-NEXT: @if_sub_environment: 4 forks, 1 helpers, 6 signals, 2 references
// RETURNS-NEXT: @write_write: 4 forks, 0 helpers, 6 signals, 2 references
// B9: return (x, x) is one fork more, two writers
// RETURNS-NEXT: @duplicate_return: 4 forks, 0 helpers, 4 signals, 2 references
// RETURNS-NEXT: @if_results: 9 forks, 0 helpers, 16 signals, 5 references
// RETURNS-NEXT: @loop: 6 forks, 0 helpers, 7 signals, 7 references
// RETURNS-NEXT: @loop_of_two_kernels: 6 forks, 2 helpers, 9 signals, 2 references
// RETURNS-NEXT: @loop_state_and_work: 7 forks, 0 helpers, 9 signals, 7 references

// All three. B4: the digest's 2 forks, 3 signals, 1 reference, + the view's signal
// and reference (its fork is combined away); B3 (Example 5.4.1): 5 forks (2 lets + 3
// returns), 6 signals, 2 references, + two views' signals and references
// ALL: @example_4_13_1: 2 forks, 0 helpers, 4 signals, 2 references
// ALL-NEXT: @example_4_13_2: 5 forks, 0 helpers, 8 signals, 4 references
// ALL-NEXT: @trivial_constant: 0 forks, 0 helpers, 0 signals, 0 references
// ALL-NEXT: @alloc_then_fill: 1 forks, 0 helpers, 4 signals, 2 references
// ALL-NEXT: @unit_let_does_not_combine: 1 forks, 0 helpers, 0 signals, 0 references
// ALL-NEXT: @two_allocs: 5 forks, 0 helpers, 8 signals, 4 references
// ALL-NEXT: @if_sub_environment: 2 forks, 1 helpers, 6 signals, 2 references
// ALL-NEXT: @write_write: 2 forks, 0 helpers, 6 signals, 2 references
// B9: one fork for the return, two writers
// ALL-NEXT: @duplicate_return: 2 forks, 0 helpers, 4 signals, 2 references
// ALL-NEXT: @if_results: 6 forks, 0 helpers, 15 signals, 4 references
// ALL-NEXT: @loop: 5 forks, 0 helpers, 6 signals, 6 references
// ALL-NEXT: @loop_of_two_kernels: 4 forks, 2 helpers, 7 signals, 0 references
// ALL-NEXT: @loop_state_and_work: 4 forks, 0 helpers, 6 signals, 4 references

// Loops with loops=false (iterations in turn: each ends once its threads are done with
// its contents) against the While rule above: the rule's forks are the iteration's own
// thread per region, its signals and references the state's (a reference and a signal
// per value an iteration makes, the guard's) and the carried locks (a pair per content
// a region uses); the helpers resolve the loop's releases after the last iteration
// IN-TURN: @loop: 4 forks, 0 helpers, 4 signals, 4 references
// IN-TURN-NEXT: @loop_of_two_kernels: 4 forks, 0 helpers, 8 signals, 2 references
// IN-TURN-NEXT: @loop_state_and_work: 6 forks, 0 helpers, 7 signals, 5 references
// IN-TURN-ALL: @loop: 3 forks, 0 helpers, 3 signals, 3 references
// IN-TURN-ALL-NEXT: @loop_of_two_kernels: 3 forks, 0 helpers, 6 signals, 0 references
// IN-TURN-ALL-NEXT: @loop_state_and_work: 3 forks, 0 helpers, 4 signals, 2 references

// The output verifies when read again (every signal, carried ones included, resolved
// exactly once on every path; every awaited one with a resolver)
// VERIFIED-LABEL: func.func @loop(
// VERIFIED:         scf.while
// VERIFIED-LABEL: func.func @loop_of_two_kernels
// VERIFIED:         scf.for
// VERIFIED-LABEL: func.func @loop_state_and_work
// VERIFIED:         scf.for

// B1, basic rules: the allocation resolves a read and a write signal; the map waits for
// both and for its view, and resolves the one signal the return waits for (Write-read
// with the releases pruned)
// CHECK-LABEL: func.func @example_4_13_1
// CHECK-NEXT:    %[[READ:.*]] = fork.signal
// CHECK-NEXT:    %[[WRITE:.*]] = fork.signal
// CHECK-NEXT:    %[[BLOCK:.*]] = fork.ref : !fork.ref<!mem.block<device>>
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      %b1_mem = mem.alloc %e0 : !mem.block<device>
// CHECK-NEXT:      fork.write %[[BLOCK]], %b1_mem
// CHECK-NEXT:      fork.resolve %[[READ]], %[[WRITE]]
// CHECK-NEXT:      fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[VIEWED:.*]] = fork.signal
// CHECK-NEXT:    %[[VIEW:.*]] = fork.ref
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      fork.wait %[[READ]]
// CHECK-NEXT:      %[[B:.*]] = fork.read %[[BLOCK]]
// CHECK-NEXT:      %b1 = mem.view %[[B]][%zero] sizes(%e0)
// CHECK-NEXT:      fork.write %[[VIEW]], %b1
// CHECK-NEXT:      fork.resolve %[[VIEWED]]
// CHECK-NEXT:      fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MAPPED:.*]] = fork.signal
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      fork.wait %[[READ]], %[[WRITE]], %[[VIEWED]]
// CHECK-NEXT:      %[[OUT:.*]] = fork.read %[[VIEW]]
// CHECK-NEXT:      mem.map ins(%b0 : {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK:           fork.resolve %[[MAPPED]]
// CHECK-NEXT:      fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    fork.wait %[[MAPPED]], %[[VIEWED]]
// CHECK-NEXT:    %[[RESULT:.*]] = fork.read %[[VIEW]]
// CHECK-NEXT:    func.return %e0, %[[RESULT]]

// B3 (Example 5.4.1), all optimisations: e1 = 2 is bound directly (the second
// allocation takes it without waiting); each chain alloc -> view -> kernel is one
// thread; the return is four writers in three forks, the writers of e0 and e1 wait
// for nothing
// ALL-IR-LABEL: func.func @example_4_13_2
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      %b1_mem = mem.alloc %e0
// ALL-IR:           mem.map ins(%b0
// ALL-IR:           fork.end
// ALL-IR-NEXT:    }
// ALL-IR-NEXT:    %e1 = arith.constant 2 : index
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      %b2_mem = mem.alloc %e1
// ALL-IR:           mem.map ins(:)
// ALL-IR:           fork.end
// ALL-IR-NEXT:    }
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      fork.fork {
// ALL-IR-NEXT:        fork.write %{{.*}}, %e0 : !fork.ref<index>
// ALL-IR-NEXT:        fork.resolve
// ALL-IR-NEXT:        fork.end
// ALL-IR-NEXT:      }
// ALL-IR-NEXT:      fork.wait
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      fork.write %{{.*}}, %e1 : !fork.ref<index>
// ALL-IR-NEXT:      fork.resolve
// ALL-IR-NEXT:      fork.end
// ALL-IR-NEXT:    }
// ALL-IR-NEXT:    fork.wait
// ALL-IR:         func.return

// The While rule: the loop's thread only starts iterations. Each iteration is a thread
// of its own (the outer fork.fork in the body); a and b each carry a pair of signals
// (its reads done, its writes done), made by the iteration for the next one and
// resolved by the kernel that uses the array: iteration k + 1's map of a waits for
// iteration k's map of a alone, and may run while iteration k's map of b still runs.
// The yield waits for nothing
// ALL-IR-LABEL: func.func @loop_of_two_kernels
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:    %[[READY:.*]] = fork.signal
// ALL-IR-NEXT:    fork.resolve %[[READY]]
// ALL-IR-NEXT:    %{{.*}} = scf.for %i = %c0 to %steps step %c1 iter_args(%[[AREADS:[a-z0-9_]+]] = %[[READY]], %[[AWRITES:[a-z0-9_]+]] = %[[READY]], %[[BREADS:[a-z0-9_]+]] = %[[READY]], %[[BWRITES:[a-z0-9_]+]] = %[[READY]]) -> (!fork.signal, !fork.signal, !fork.signal, !fork.signal) {
// ALL-IR-NEXT:      %[[AR:.*]] = fork.signal
// ALL-IR-NEXT:      %[[AW:.*]] = fork.signal
// ALL-IR-NEXT:      %[[BR:.*]] = fork.signal
// ALL-IR-NEXT:      %[[BW:.*]] = fork.signal
// ALL-IR-NEXT:      fork.fork {
// ALL-IR-NEXT:        fork.fork {
// ALL-IR-NEXT:          fork.wait %[[AWRITES]], %[[AREADS]]
// ALL-IR-NEXT:          mem.map ins(%a
// ALL-IR:               fork.resolve %[[AR]], %[[AW]]
// ALL-IR-NEXT:          fork.end
// ALL-IR-NEXT:        }
// ALL-IR-NEXT:        fork.wait %[[BWRITES]], %[[BREADS]]
// ALL-IR-NEXT:        mem.map ins(%b
// ALL-IR:             fork.resolve %[[BR]], %[[BW]]
// ALL-IR-NEXT:        fork.end
// ALL-IR-NEXT:      }
// ALL-IR-NEXT:      scf.yield %[[AR]], %[[AW]], %[[BR]], %[[BW]] : !fork.signal, !fork.signal, !fork.signal, !fork.signal
// ALL-IR-NEXT:    }

// The While rule with a state: the sum goes to the next iteration by a reference and a
// signal (written once the sum is known); the map of a is not waited for by the next
// sum, only by the next map (the carried pair of a)
// ALL-IR-LABEL: func.func @loop_state_and_work
// ALL-IR:         scf.for %i = %c0 to %steps step %c1 iter_args(%[[ACC:[a-z0-9_]+]] = %{{.*}}, %[[ACCSET:[a-z0-9_]+]] = %{{.*}}, %[[READS:[a-z0-9_]+]] = %{{.*}}, %[[WRITES:[a-z0-9_]+]] = %{{.*}}) -> (!fork.ref<f32>, !fork.signal, !fork.signal, !fork.signal) {
// ALL-IR:               fork.wait %[[WRITES]], %[[READS]]
// ALL-IR-NEXT:          mem.map ins(%a
// ALL-IR:               fork.resolve %[[MAPREAD:.*]], %[[MAPWRITE:.*]]
// ALL-IR:               fork.wait %[[ACCSET]]
// ALL-IR-NEXT:          %acc = fork.read %[[ACC]] : !fork.ref<f32>
// ALL-IR-NEXT:          %acc2 = arith.addf %acc, %v : f32
// ALL-IR:           scf.yield %[[NEXT:.*]], %[[NEXTSET:.*]], %[[MAPREAD]], %[[MAPWRITE]] : !fork.ref<f32>, !fork.signal, !fork.signal, !fork.signal

// loops=false: each iteration is a term of its own with fresh locks, and ends once they
// are released; the two kernels run side by side, iterations in turn
// IN-TURN-IR-LABEL: func.func @loop_of_two_kernels
// IN-TURN-IR:         scf.for %i = %c0 to %steps step %c1 {
// IN-TURN-IR-NEXT:      %[[AR:.*]] = fork.signal
// IN-TURN-IR-NEXT:      %[[AW:.*]] = fork.signal
// IN-TURN-IR-NEXT:      %[[BR:.*]] = fork.signal
// IN-TURN-IR-NEXT:      %[[BW:.*]] = fork.signal
// IN-TURN-IR-NEXT:      fork.fork {
// IN-TURN-IR-NEXT:        mem.map ins(%a
// IN-TURN-IR:             fork.resolve %[[AR]], %[[AW]]
// IN-TURN-IR-NEXT:        fork.end
// IN-TURN-IR-NEXT:      }
// IN-TURN-IR-NEXT:      mem.map ins(%b
// IN-TURN-IR:           fork.resolve %[[BR]], %[[BW]]
// IN-TURN-IR-NEXT:      fork.wait %[[AR]], %[[AW]], %[[BR]], %[[BW]]
// IN-TURN-IR-NEXT:    }

// B7: the if only reads x (Read-write split with the op after it): a helper resolves
// the writer's wait once the allocation's write lock and the if's read are done; the
// then branch releases its read after the copy, the else branch at its head (4.11g)
// CHECK-LABEL: func.func @if_sub_environment
// CHECK:         %[[XREAD:.*]] = fork.signal
// CHECK-NEXT:    %[[XWRITE:.*]] = fork.signal
// CHECK:         %x = mem.view
// CHECK:         fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[IFREAD:.*]] = fork.signal
// CHECK-NEXT:    %[[HWAIT:.*]] = fork.signal
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      fork.wait %[[XWRITE]], %[[IFREAD]]
// CHECK-NEXT:      fork.resolve %[[HWAIT]]
// CHECK-NEXT:      fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      scf.if %c {
// CHECK-NEXT:        fork.wait %[[XREAD]]
// CHECK-NEXT:        %{{.*}} = fork.read
// CHECK-NEXT:        mem.copy
// CHECK-NEXT:        fork.resolve %[[IFREAD]]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        fork.resolve %[[IFREAD]]
// CHECK-NEXT:        mem.fill %v, %o
// CHECK-NEXT:      }
// CHECK-NEXT:      fork.end
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[FILLED:.*]] = fork.signal
// CHECK-NEXT:    fork.fork {
// CHECK-NEXT:      fork.wait %[[XREAD]], %[[HWAIT]]
// CHECK:           mem.fill %v
// CHECK-NEXT:      fork.resolve %[[FILLED]]

// B13 (4.9, the exit per the prose), basic rules: the loop's thread runs a loop that
// carries the state i as a reference and a signal (written before the loop); each
// iteration's guard code (the while's before region) is a thread that writes the guard
// to a reference of its own and resolves its signal; the loop's thread waits for that
// signal alone and reads the guard; the condition hands i on unchanged (its reference
// and signal); the body (the after region) is a thread writing the next i, and the
// loop's thread does not wait for it. On exit the state the guard saw goes to the
// loop's destination
// CHECK-LABEL: func.func @loop(
// CHECK:           fork.read %{{.*}} : !fork.ref<index>
// CHECK-NEXT:      %[[READY:.*]] = fork.signal
// CHECK-NEXT:      %[[INIT:.*]] = fork.ref : !fork.ref<index>
// CHECK-NEXT:      fork.write %[[INIT]], %i0 : !fork.ref<index>
// CHECK-NEXT:      fork.resolve %[[READY]]
// CHECK-NEXT:      %[[LAST:.*]], %[[LASTSET:.*]] = scf.while (%[[I:.*]] = %[[INIT]], %[[ISET:.*]] = %[[READY]]) : (!fork.ref<index>, !fork.signal) -> (!fork.ref<index>, !fork.signal) {
// CHECK-NEXT:        %[[GSET:.*]] = fork.signal
// CHECK-NEXT:        %[[G:.*]] = fork.ref : !fork.ref<i1>
// CHECK-NEXT:        fork.fork {
// CHECK:               fork.wait %[[ISET]]
// CHECK-NEXT:          %i = fork.read %[[I]] : !fork.ref<index>
// CHECK-NEXT:          %go = arith.cmpi ult, %i, %ten : index
// CHECK:             fork.write %[[G]], %{{.*}} : !fork.ref<i1>
// CHECK-NEXT:        fork.resolve %[[GSET]]
// CHECK-NEXT:        fork.end
// CHECK-NEXT:      }
// CHECK-NEXT:      fork.wait %[[GSET]]
// CHECK-NEXT:      %[[GO:.*]] = fork.read %[[G]] : !fork.ref<i1>
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[I]], %[[ISET]] : !fork.ref<index>, !fork.signal
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[J:.*]]: !fork.ref<index>, %[[JSET:.*]]: !fork.signal):
// CHECK-NEXT:      %[[KSET:.*]] = fork.signal
// CHECK-NEXT:      %[[K:.*]] = fork.ref : !fork.ref<index>
// CHECK-NEXT:      fork.fork {
// CHECK:               fork.wait %[[JSET]]
// CHECK-NEXT:          %j = fork.read %[[J]] : !fork.ref<index>
// CHECK-NEXT:          %k = arith.addi %j, %{{.*}} : index
// CHECK:             fork.write %[[K]], %{{.*}} : !fork.ref<index>
// CHECK-NEXT:        fork.resolve %[[KSET]]
// CHECK-NEXT:        fork.end
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[K]], %[[KSET]] : !fork.ref<index>, !fork.signal
// CHECK-NEXT:    }
// CHECK-NEXT:    fork.wait %[[LASTSET]]
// CHECK-NEXT:    %[[OUT:.*]] = fork.read %[[LAST]] : !fork.ref<index>
// CHECK-NEXT:    fork.write %{{.*}}, %[[OUT]] : !fork.ref<index>

// beside: each function keeps its form, and a private forked copy follows it where a
// kernel runs in a forked thread and another kernel may overlap it (Example 4.13.2's
// two independent kernels); with one kernel (Example 4.13.1) or none, no copy
// BESIDE-LABEL: func.func @example_4_13_1(
// BESIDE-NOT:     fork.
// BESIDE:       func.func @example_4_13_2(
// BESIDE-NOT:     fork.
// BESIDE:         func.return
// BESIDE-NEXT:  }
// BESIDE-NEXT:  func.func private @example_4_13_2__forked({{.*}} attributes {soacc.forked_variant_of = "example_4_13_2"} {
// BESIDE:         fork.fork
// BESIDE-LABEL: func.func @trivial_constant(
// BESIDE-NEXT:    arith.constant 2
// BESIDE-NEXT:    func.return
// BESIDE-NEXT:  }
// BESIDE-NEXT:  func.func @alloc_then_fill(
// BESIDE-NOT:   __forked
// BESIDE:       func.func @if_sub_environment(
// BESIDE-NOT:     fork.
// BESIDE:       func.func private @if_sub_environment__forked(

// B1, B4: Example 4.13.1, "add one to every element" (here: which elements are
// positive, so that the buffer's bytes are its elements, as the study's alloc e0)
func.func @example_4_13_1(%e0: index, %zero: index, %b0_mem: !mem.block<device>, %b0: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  %b1_mem = mem.alloc %e0 : !mem.block<device>
  %b1 = mem.view %b1_mem[%zero] sizes(%e0) : !mem.block<device> -> memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%b0 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b1 : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %z : f32
    mem.yield %p : i1
  }
  func.return %e0, %b1 : index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
}

// B2, B3: Example 4.13.2, two independent operations; the backpermute reads element
// i + 1 of the input for element i of its output
func.func @example_4_13_2(%e0: index, %zero: index, %b0_mem: !mem.block<device>, %b0: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  %b1_mem = mem.alloc %e0 : !mem.block<device>
  %b1 = mem.view %b1_mem[%zero] sizes(%e0) : !mem.block<device> -> memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%b0 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b1 : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %z : f32
    mem.yield %p : i1
  }
  %e1 = arith.constant 2 : index
  %b2_mem = mem.alloc %e1 : !mem.block<device>
  %b2 = mem.view %b2_mem[%zero] sizes(%e1) : !mem.block<device> -> memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(:) outs(%b2 : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) indexed {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %j = arith.addi %i, %one : index
    %x = mem.load %b0[%j] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %z : f32
    mem.yield %p : i1
  }
  func.return %e0, %b1, %e1, %b2 : index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, index, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
}
// B5 (b): let y = 2 in return y
func.func @trivial_constant() -> index {
  %y = arith.constant 2 : index
  func.return %y : index
}

// B5 (c), B6 (ii): an allocation is not trivial; alloc b; op(out b) combine
func.func @alloc_then_fill(%n: index, %bytes: index, %zero: index, %v: f32) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  %b_mem = mem.alloc %bytes : !mem.block<device>
  %b = mem.view %b_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.fill %v, %b : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// B6 (i): let () = op1(out a) in let y = 2 in ...: a let of nothing does not combine
func.func @unit_let_does_not_combine(%a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %v: f32) -> index {
  mem.fill %v, %a : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %y = arith.constant 2 : index
  func.return %y : index
}

// B6 (iii): alloc b; alloc c; op(out b, out c): the first alloc is not combined
func.func @two_allocs(%n: index, %bytes: index, %zero: index, %a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %b_mem = mem.alloc %bytes : !mem.block<device>
  %c_mem = mem.alloc %bytes : !mem.block<device>
  %b = mem.view %b_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %c = mem.view %c_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b, %c : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    mem.yield %x, %x : f32, f32
  }
  func.return %b, %c : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// B7: an if reads x on one branch; the op after it writes x
func.func @if_sub_environment(%c: i1, %n: index, %bytes: index, %zero: index, %v: f32, %o_mem: !mem.block<device>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  %x_mem = mem.alloc %bytes : !mem.block<device>
  %x = mem.view %x_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  scf.if %c {
    mem.copy %x, %o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    scf.yield
  } else {
    mem.fill %v, %o : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    scf.yield
  }
  mem.fill %v, %x : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %x : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// B8: two writes of one buffer stay in order
func.func @write_write(%n: index, %bytes: index, %zero: index, %v: f32, %w: f32) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  %x_mem = mem.alloc %bytes : !mem.block<device>
  %x = mem.view %x_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.fill %v, %x : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.fill %w, %x : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %x : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// B9: a value returned twice
func.func @duplicate_return(%n: index, %bytes: index, %zero: index, %v: f32) -> (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %x_mem = mem.alloc %bytes : !mem.block<device>
  %x = mem.view %x_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.fill %v, %x : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %x, %x : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// an if with results: each branch writes the if's destination
func.func @if_results(%c: i1, %n: index, %bytes: index, %zero: index, %a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %r_mem, %r = scf.if %c -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %t_mem = mem.alloc %bytes : !mem.block<device>
    %t = mem.view %t_mem[%zero] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %a, %t : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    scf.yield %t_mem, %t : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  } else {
    scf.yield %a_mem, %a : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  %one = arith.constant 1.0 : f32
  mem.fill %one, %r : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %r_mem, %r : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// B13: while (\i. i < ten) do (\i. i + 1) i0
func.func @loop(%i0: index, %ten: index) -> index {
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %i0) : (index) -> index {
    %go = arith.cmpi ult, %i, %ten : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  func.return %r : index
}

// Forks inside a loop: the two kernels of an iteration run side by side; with the While
// rule the next iteration's kernel on a waits only for this one's kernel on a
func.func @loop_of_two_kernels(%steps: index, %a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b_mem: !mem.block<device>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %steps step %c1 {
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.addf %x, %x : f32
      mem.yield %y : f32
    }
    mem.map ins(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %x : f32
      mem.yield %y : f32
    }
    scf.yield
  }
  func.return %a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// The While rule with a state and other work: the sum is the state, the map on a is
// work the next iteration's sum does not wait for
func.func @loop_state_and_work(%steps: index, %v: f32, %a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f32) {
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.addf %x, %x : f32
      mem.yield %y : f32
    }
    %acc2 = arith.addf %acc, %v : f32
    scf.yield %acc2 : f32
  }
  func.return %t : f32
}

// A device loop (its before region only loads its condition: what reduce-device-syncs
// makes) is one binding, left whole in a thread of its own: on the GPU its iterations
// run in turn in one conditional graph node; the independent map overlaps it
// ALL-IR-LABEL: func.func @device_loop(
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      %{{.*}}, %{{.*}} = scf.while
// ALL-IR-NEXT:        %{{.*}} = arith.constant 0 : index
// ALL-IR-NEXT:        %{{.*}} = mem.load
// ALL-IR-NEXT:        scf.condition
// ALL-IR-NEXT:      } do {
// ALL-IR-NOT:       fork.
// ALL-IR:             scf.yield
// ALL-IR-NEXT:      }
// ALL-IR:         fork.fork {
// ALL-IR-NEXT:      mem.map ins(%b
func.func @device_loop(%go_mem: !mem.block<device>, %go: memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, %a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b_mem: !mem.block<device>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  %g, %x = scf.while (%g0 = %go, %x0 = %a) : (memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %c0 = arith.constant 0 : index
    %c = mem.load %g0[%c0] : memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>
    scf.condition(%c) %g0, %x0 : memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  } do {
  ^bb0(%g1: memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, %x1: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
    mem.map ins(%x1 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%x1 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb1(%e: f32):
      %h = arith.constant 0.5 : f32
      %y = arith.mulf %e, %h : f32
      mem.yield %y : f32
    }
    mem.gpu_body outs(%g1 : memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>) {
      %f = arith.constant false
      mem.yield %f : i1
    }
    scf.yield %g1, %x1 : memref<1xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  mem.map ins(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb1(%e: f32):
    %y = arith.negf %e : f32
    mem.yield %y : f32
  }
  func.return %x : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}
