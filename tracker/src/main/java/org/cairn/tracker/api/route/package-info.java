/**
 * What serves each endpoint of the API, once the router ({@link org.cairn.tracker.api.TrackerApi}) has
 * matched and authorized a call: {@link org.cairn.tracker.api.route.PeerRoutes} (donors),
 * {@link org.cairn.tracker.api.route.HistoryRoutes} (availability history),
 * {@link org.cairn.tracker.api.route.DataRoutes} (stores and fetches),
 * {@link org.cairn.tracker.api.route.VersionRoutes} (versions and their records),
 * {@link org.cairn.tracker.api.route.AdminRoutes} (the tracker and the grid as a whole) and
 * {@link org.cairn.tracker.api.route.StatusAssets} (the status page). Handlers hold no rules about
 * who may call them: the endpoint table in core declares that, in one place.
 */
package org.cairn.tracker.api.route;
