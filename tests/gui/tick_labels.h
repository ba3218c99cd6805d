#pragma once
// The rectangles a QCustomPlot axis draws its tick labels in (as its painter measures them) and
// whether any two intersect: the check behind "tick labels never run into each other".

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QString>
#include <QVector>

namespace schedlab::test {

struct TickLabelBox {
    QString text;
    QRectF rect; ///< in widget pixels
};

/// The labels of `axis`' last replot, each in its rectangle: centred on its tick, offset from the
/// axis line as QCPAxisPainter places it (the offset is the same for all, so only the extent along
/// the axis matters for overlap).
inline QVector<TickLabelBox> tickLabelBoxes(const QCPAxis* axis)
{
    QVector<TickLabelBox> out;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const QFontMetrics fm(axis->tickLabelFont());
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]))
            continue; // QCustomPlot does not draw labels of ticks outside the range
        const QRect size = fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter, labels[i]);
        const double at = axis->coordToPixel(ticks[i]);
        QRectF r = axis->orientation() == Qt::Horizontal ? QRectF(at - size.width() / 2.0, 0, size.width(), size.height())
                                                         : QRectF(0, at - size.height() / 2.0, size.width(), size.height());
        out.push_back({ labels[i], r });
    }
    return out;
}

/// Empty when no two labels of `axis` intersect; else the first pair that does.
inline QString tickLabelOverlap(const QCPAxis* axis)
{
    const QVector<TickLabelBox> boxes = tickLabelBoxes(axis);
    for (int i = 0; i < boxes.size(); ++i)
        for (int j = i + 1; j < boxes.size(); ++j)
            if (boxes[i].rect.intersects(boxes[j].rect))
                return QStringLiteral("'%1' and '%2' overlap").arg(boxes[i].text, boxes[j].text);
    return {};
}

} // namespace schedlab::test
