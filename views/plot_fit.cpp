#include "plot_fit.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>

namespace schedlab::views {

namespace {
const char* const kNoteName = "plotNote";

QCPItemText* noteOf(const QCustomPlot* plot)
{
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->objectName() == QLatin1String(kNoteName))
            return t;
    return nullptr;
}
} // namespace

VisibleData fitValueAxis(QCustomPlot* plot)
{
    const QCPRange keys = plot->xAxis->range();
    bool any = false;
    QCPRange all;
    for (int g = 0; g < plot->graphCount(); ++g) {
        const QCPGraph* graph = plot->graph(g);
        if (!graph->visible())
            continue;
        bool found = false;
        const QCPRange r = graph->getValueRange(found, QCP::sdBoth, keys);
        if (!found)
            continue;
        all = any ? QCPRange(std::min(all.lower, r.lower), std::max(all.upper, r.upper)) : r;
        any = true;
    }
    if (!any || (all.lower == 0 && all.upper == 0)) {
        plot->yAxis->setRange(0, 1);
        return any ? VisibleData::AllZero : VisibleData::None;
    }
    const double lower = std::min(0.0, all.lower), upper = std::max(0.0, all.upper);
    const double pad = (upper - lower) * 0.1;
    plot->yAxis->setRange(lower < 0 ? lower - pad : 0, upper > 0 ? upper + pad : 0);
    return VisibleData::Values;
}

namespace {

const char* const kFullText = "fullText";

/// `text` broken at spaces into lines no wider than `width` pixels in `font` (a single word wider
/// than that stays on its own line); explicit newlines are kept.
QString wrapToWidth(const QString& text, const QFont& font, int width)
{
    const QFontMetrics fm(font);
    QStringList out;
    for (const QString& para : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : para.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
                out << line;
                line = word;
            } else {
                line = candidate;
            }
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

/// Re-wraps the note to the current axis rect (called after every layout, so resizing rewraps).
void rewrap(QCustomPlot* plot, QCPItemText* note)
{
    const QString full = note->property(kFullText).toString();
    const int rectWidth = plot->axisRect() ? plot->axisRect()->width() : plot->width() - 80;
    const int width = std::max(80, rectWidth - 24); // the note's padding and a margin
    note->setText(wrapToWidth(full, note->font(), width));
}

} // namespace

void setPlotNote(QCustomPlot* plot, const QString& text)
{
    QCPItemText* note = noteOf(plot);
    if (text.isEmpty()) {
        if (note)
            note->setVisible(false);
        return;
    }
    if (!note) {
        note = new QCPItemText(plot);
        note->setObjectName(QLatin1String(kNoteName));
        note->setClipToAxisRect(true);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.5, 0.45);
        note->setPositionAlignment(Qt::AlignCenter);
        note->setTextAlignment(Qt::AlignCenter);
        note->setColor(QColor(90, 90, 90));
        note->setPadding(QMargins(6, 4, 6, 4));
        note->setBrush(QBrush(QColor(255, 255, 255, 220)));
        QObject::connect(plot, &QCustomPlot::afterLayout, note, [plot, note] { rewrap(plot, note); });
    }
    note->setProperty(kFullText, text);
    rewrap(plot, note);
    note->setVisible(true);
}

/// The note as given (unwrapped), empty when none.
QString plotNote(const QCustomPlot* plot)
{
    const QCPItemText* note = noteOf(plot);
    return note && note->visible() ? note->property(kFullText).toString() : QString();
}

} // namespace schedlab::views
