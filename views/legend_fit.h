#pragma once
// A plot's legend below its axis rect in as many columns as fit the plot's width (one per row on
// a narrow plot), refitted whenever the plot is resized, so no entry is cut off.

class QCustomPlot;

namespace schedlab::views {

/// Sets the wrap (columns) of `plot`'s legend from its items' widths and the plot's width.
void fitLegendColumns(QCustomPlot* plot);

/// Refits `plot`'s legend on every resize of the plot (and now).
void keepLegendFitted(QCustomPlot* plot);

} // namespace schedlab::views
