// Records function entries for path-trace. Compiled without coverage instrumentation (the
// coverage flags are Swift flags only), so the callback never calls itself.
#define _GNU_SOURCE
#include "PathTraceRecorder.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

enum { capacity = 1 << 19, max_threads = 256, name_size = 32 };

static pt_event events[capacity];
static _Atomic size_t next_event;
static _Atomic size_t dropped;
static _Atomic int enabled;
static _Atomic uint64_t guards;
static _Atomic uint32_t threads;
static char thread_names[max_threads][name_size];
static __thread uint32_t this_thread;
static __thread uintptr_t stack_low, stack_high;

// Called once per instrumented module with its guards; numbering them marks them as initialized.
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start) return;
    uint64_t first = atomic_fetch_add(&guards, (uint64_t)(stop - start));
    for (uint32_t *guard = start; guard < stop; guard++) *guard = (uint32_t)(++first);
}

static uint32_t current_thread(void) {
    if (this_thread == 0) {
        uint32_t number = atomic_fetch_add(&threads, 1) + 1;
        if (number <= max_threads) pthread_getname_np(pthread_self(), thread_names[number - 1], name_size);
        pthread_attr_t attributes;
        if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
            void *address = NULL;
            size_t size = 0;
            if (pthread_attr_getstack(&attributes, &address, &size) == 0) {
                stack_low = (uintptr_t)address;
                stack_high = (uintptr_t)address + size;
            }
            pthread_attr_destroy(&attributes);
        }
        this_thread = number;
    }
    return this_thread;
}

// Follows the frame-pointer chain from `frame` (the callback's own frame), reading only inside
// this thread's stack and only upwards, so a frame without a frame pointer ends the walk (or, at
// worst, yields a wrong address) but never faults.
static void read_callers(uintptr_t *frame, uintptr_t callers[PT_CALLERS]) {
    for (int level = 0; level < PT_CALLERS; level++) callers[level] = 0;
    if (stack_low == 0) return;
    // frame[0] is the entered function's frame; its frame[1] is the return address into its caller.
    for (int level = 0; level < PT_CALLERS; level++) {
        uintptr_t next = frame[0];
        if (next <= (uintptr_t)frame || next >= stack_high - 2 * sizeof(uintptr_t) || (next & 7) != 0) return;
        frame = (uintptr_t *)next;
        callers[level] = frame[1];
    }
}

static void record(uintptr_t pc, uintptr_t *frame, uint32_t marker) {
    uint32_t thread = current_thread();
    pt_event event = {.pc = pc, .thread = thread, .marker = marker};
    if (frame) {
        // frame[0] is the entered function's frame pointer, saved by this callback's prologue.
        event.frame = frame[0];
        read_callers(frame, event.callers);
    }
    size_t slot = atomic_fetch_add_explicit(&next_event, 1, memory_order_relaxed);
    if (slot >= capacity) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    events[slot] = event;
}

// Called on entry to every instrumented function. Swift keeps frame pointers, and this file is
// built with them (see Package.swift), so the callers are read off the frame-pointer chain.
__attribute__((noinline)) void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    (void)guard;
    if (!atomic_load_explicit(&enabled, memory_order_acquire)) return;
    record((uintptr_t)__builtin_return_address(0), (uintptr_t *)__builtin_frame_address(0), 0);
}

uint64_t pt_guard_count(void) { return atomic_load(&guards); }

void pt_start(void) {
    atomic_store(&enabled, 0);
    memset(events, 0, sizeof events);
    atomic_store(&next_event, 0);
    atomic_store(&dropped, 0);
    atomic_store(&enabled, 1);
}

void pt_mark(uint32_t marker) { record(0, NULL, marker); }

void pt_stop(void) { atomic_store(&enabled, 0); }

size_t pt_count(void) {
    size_t count = atomic_load(&next_event);
    return count < capacity ? count : capacity;
}

size_t pt_capacity(void) { return capacity; }

size_t pt_dropped(void) { return atomic_load(&dropped); }

const pt_event *pt_events(void) { return events; }

const char *pt_thread_name(uint32_t thread) {
    if (thread == 0 || thread > max_threads) return "";
    return thread_names[thread - 1];
}

uint32_t pt_thread_count(void) { return atomic_load(&threads); }
