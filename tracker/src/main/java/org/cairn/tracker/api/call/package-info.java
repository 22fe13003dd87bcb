/**
 * One API call below the router and the routes, which both use it: the call as a handler gets it
 * ({@link org.cairn.tracker.api.call.Call}), what serves it ({@link org.cairn.tracker.api.call.Handler},
 * bound per endpoint in {@link org.cairn.tracker.api.call.Bindings}), how it is read and answered
 * ({@link org.cairn.tracker.api.call.Requests}, {@link org.cairn.tracker.api.call.Response},
 * {@link org.cairn.tracker.api.call.ApiException}) and counted ({@link org.cairn.tracker.api.call.Metrics}).
 */
package org.cairn.tracker.api.call;
