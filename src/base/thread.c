/* Lowering and restoring a thread's priority without a race (thread.h):
 * the thread publishes that it lowered itself, then looks whether a
 * restore was asked; the restorer asks, then looks whether the thread
 * lowered itself. With sequentially consistent atomics one of the two
 * sees the other's write, so a thread never stays lowered after a
 * restore (at worst both restore it). */
#include "base/thread.h"

void td_thread_claim_lower(struct td_thread_claim *c)
{
    if (__atomic_load_n(&c->due, __ATOMIC_SEQ_CST))
        return;
    c->id = td_thread_current_id();
    c->base = td_thread_priority(c->id);
    int low = td_thread_priority_lowered(c->base);
    if (low == c->base || !td_thread_priority_set(c->id, low))
        return;
    __atomic_store_n(&c->lowered, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&c->due, __ATOMIC_SEQ_CST))
        td_thread_priority_set(c->id, c->base);
}

void td_thread_claim_restore(struct td_thread_claim *c)
{
    __atomic_store_n(&c->due, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&c->lowered, __ATOMIC_SEQ_CST))
        td_thread_priority_set(c->id, c->base);
}
