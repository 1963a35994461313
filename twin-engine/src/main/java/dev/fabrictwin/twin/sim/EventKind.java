package dev.fabrictwin.twin.sim;

/** What an event of the simulation does when its time comes. */
enum EventKind { COMM_START, BACKGROUND_TICK, FAULT_START, FAULT_FLAP, FAULT_END, JOB_END, FLOW_START, PIN,
    LINK_REPORT }
