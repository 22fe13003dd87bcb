/** The JVM's start-up work for a one-command process: what it loads on a second thread, the CPU kernels it warms, logging set up in code, and a quiet exit. */
package org.cairn.cli.startup;
