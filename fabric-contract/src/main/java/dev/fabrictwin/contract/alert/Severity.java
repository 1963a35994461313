package dev.fabrictwin.contract.alert;

/** How urgent an alert is: a critical root cause pages; a warning is worth a look. */
public enum Severity { WARNING, CRITICAL }
