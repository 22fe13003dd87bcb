/**
 * The tracker's HTTP/1.1 JSON API under /api/v1 (Netty): the server and its body limits, and the router
 * ({@link org.cairn.tracker.api.TrackerApi}) that matches, authenticates and authorizes each call by the
 * endpoint table before a handler of {@code api.route} serves it; {@code api.call} holds what both use.
 */
package org.cairn.tracker.api;
