/* A thread's claim on the CPU, for work that can wait. check runs its
 * installs' integrity checks on a thread beside the import closure, whose
 * gathering thread is what check waits for; with three busy threads on
 * two cores, a fair scheduler gives each two thirds of a core, and the
 * one check waits for gets no more than the one it does not
 * (docs/performance.md, session 8). The work that can wait lowers its own
 * priority, and whoever then needs it done raises it again.
 *
 * Raising it back is a privilege on Linux (RLIMIT_NICE, CAP_SYS_NICE):
 * where it is refused the thread stays lowered, which is why the lowering
 * is mild (nice 10 more than the thread had: about a tenth of a core
 * against one busy thread of its former priority, not nothing, as
 * SCHED_IDLE would be). Both steps are relative to the priority the
 * thread started with, so `nice -n 19 torchdoctor` never runs a thread
 * above nice 19. */
#ifndef TD_BASE_THREAD_H
#define TD_BASE_THREAD_H

#include <stdbool.h>

/* Shared by the lowered thread and the one that raises it. */
struct td_thread_claim {
    long id;          /* the thread's id for the system (Linux tid, Windows thread id) */
    int base;         /* its priority before it lowered it: what a restore sets */
    int lowered, due; /* atomics: lowered (by the thread), raise requested */
};

/* The calling thread yields to normal work from now on, unless
 * td_thread_claim_restore was called on C already. */
void td_thread_claim_lower(struct td_thread_claim *c);
/* The thread of C gets its normal priority back (at once where it has
 * lowered it, else it will not lower it); harmless when refused. */
void td_thread_claim_restore(struct td_thread_claim *c);

/* What is cheaper done while the process has one thread, called first
 * in main: the descriptor table grown to room for 1024 (or the limit).
 * Binding keeps each library of a closure open until it has been read
 * (check on Debian's torch: up to descriptor 293), and Linux grows the
 * table of a process whose threads share it only after an RCU grace
 * period (expand_files: synchronize_rcu), which on the VMs measured here
 * stalled the closure's thread for milliseconds each time. */
void td_threads_prepare(void);

/* Platform part (thread_posix.c, thread_windows.c). */
long td_thread_current_id(void);
/* The thread's priority in the platform's own terms (Linux: its nice
 * value; Windows: its thread priority), what lowering it gives (the same
 * value where it cannot go lower), and setting it. */
int td_thread_priority(long id);
int td_thread_priority_lowered(int base);
bool td_thread_priority_set(long id, int priority);
#endif
