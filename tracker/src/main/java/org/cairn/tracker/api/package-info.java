/** The tracker's HTTP/1.1 JSON API under /api/v1 (Netty): its routing, routes and metrics. */
package org.cairn.tracker.api;
