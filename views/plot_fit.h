#pragma once
// Value-axis fitting for the dashboard's plots: the y range follows the data in the visible x
// range (refit on pan and zoom), never goes below zero for non-negative metrics, and a plot whose
// visible data are all zero (or absent) says so in words on a 0..1 axis instead of a -4..4 one.

#include <QString>

class QCustomPlot;

namespace schedlab::views {

/// What the visible x range of a plot holds.
enum class VisibleData { None, AllZero, Values };

/// Fits `plot`'s y axis to its visible graphs within the x range shown: [0, max + 10 %] (from the
/// minimum when data go below zero), 0..1 when every visible value is zero or there is none.
VisibleData fitValueAxis(QCustomPlot* plot);

/// Shows `text` centred in the axis rect of `plot` (empty: hides it). One note per plot.
void setPlotNote(QCustomPlot* plot, const QString& text);
/// The note shown, empty when none (tests, screenshots).
QString plotNote(const QCustomPlot* plot);

} // namespace schedlab::views
