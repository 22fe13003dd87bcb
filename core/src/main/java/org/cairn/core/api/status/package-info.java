/** The records of the grid's state as the status page, {@code cairn status} and the tray app show it: cluster, capacity, availability, durability, apps, tracker health. */
package org.cairn.core.api.status;
