/**
 * What a serving tracker runs over its store (membership, history, placement, catalog, repair, the API and
 * their periodic tasks) and its settings: built by a lone tracker and by a replicated group's leader.
 */
package org.cairn.tracker.service;
