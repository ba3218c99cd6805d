#pragma once
// A small square of a run's colour for lists and legends.

#include <QColor>
#include <QIcon>
#include <QPixmap>

namespace schedlab::app {

inline QIcon swatch(const QColor& c)
{
    QPixmap pm(12, 12);
    pm.fill(c);
    return QIcon(pm);
}

} // namespace schedlab::app
