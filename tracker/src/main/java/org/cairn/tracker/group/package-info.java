/** A replicated tracker: members of a Raft group (Apache Ratis) that apply one log to their own store. */
package org.cairn.tracker.group;
