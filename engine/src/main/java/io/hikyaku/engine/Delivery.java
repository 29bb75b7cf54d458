package io.hikyaku.engine;

/** Chooses which visible messages a receive gets; told about every message and state change. */
interface Delivery {

    /** A message entered the queue (in state {@code m.state}). */
    void added(Message m);

    /** A message left the queue while in state {@code m.state}. */
    void removed(Message m);

    /** {@code m} moved from {@code before} to {@code m.state}. */
    void changed(Message m, Message.State before);

    /** True when a receive now would get at least one message. */
    boolean hasDeliverable();
}
