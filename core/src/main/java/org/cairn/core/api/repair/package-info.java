/** The records of repair on the tracker's API: the jobs peers claim, their outcomes, and pieces reported bad. */
package org.cairn.core.api.repair;
