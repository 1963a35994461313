package dev.fabrictwin.twin;
