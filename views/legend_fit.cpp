#include "legend_fit.h"

#include <qcustomplot.h>

#include <QEvent>

#include <algorithm>

namespace schedlab::views {

namespace {

class LegendFitter final : public QObject {
public:
    explicit LegendFitter(QCustomPlot* plot)
        : QObject(plot)
        , m_plot(plot)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_plot && event->type() == QEvent::Resize)
            fitLegendColumns(m_plot);
        return false;
    }

private:
    QCustomPlot* m_plot;
};

} // namespace

void fitLegendColumns(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    if (!legend)
        return;
    int widest = 0, items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) { // a grid's unfilled cells are empty
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++items;
        }
    if (items == 0)
        return;
    const QMargins m = legend->margins();
    const int room = plot->width() - m.left() - m.right();
    const int spacing = legend->columnSpacing();
    const int columns = std::clamp((room + spacing) / std::max(1, widest + spacing), 1, items);
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true); // re-flow the items into the new columns
    }
}

void keepLegendFitted(QCustomPlot* plot)
{
    plot->installEventFilter(new LegendFitter(plot));
    fitLegendColumns(plot);
}

} // namespace schedlab::views
