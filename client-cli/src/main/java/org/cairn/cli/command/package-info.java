/** The commands a user or a job script runs on one grid: store, fetch, verify, versions, ls, rm, status, policy, key, wait, prefetch, mount. */
package org.cairn.cli.command;
