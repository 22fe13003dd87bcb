/** What a command prints: standard output that reports a failed write, files written and synced, progress on a terminal, the store report, JSON, and the log a thin client sees. */
package org.cairn.cli.output;
