/** Host states, slotted availability history and the statistics FALCON §3.2.1 builds on (CR, LI, CRLS, MTTF). */
package org.cairn.core.availability;
