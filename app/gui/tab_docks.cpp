#include "tab_docks.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <QTabWidget>

namespace schedlab::app {

TabDocks::TabDocks(QMainWindow* window, QTabWidget* tabs)
    : QObject(window)
    , m_window(window)
{
    connect(tabs, &QTabWidget::currentChanged, this, &TabDocks::show);
}

void TabDocks::show(int index)
{
    QSettings settings;
    const QList<QDockWidget*> docks = m_window->findChildren<QDockWidget*>();
    if (m_lastTab >= 0)
        for (QDockWidget* d : docks)
            settings.setValue(QStringLiteral("tabDocks/%1/%2").arg(m_lastTab).arg(d->objectName()), d->toggleViewAction()->isChecked());
    m_lastTab = index;
    for (QDockWidget* d : docks) {
        const bool byDefault = !((index == 3 || index == 4) && d->objectName() == "traceDock")
            && index != 5; // Autoscaling: the docks are about placement
        const QVariant shown = settings.value(QStringLiteral("tabDocks/%1/%2").arg(index).arg(d->objectName()));
        // The view action says "open" for a dock behind a tabified sibling too.
        if ((shown.isValid() ? shown.toBool() : byDefault) != d->toggleViewAction()->isChecked())
            d->toggleViewAction()->trigger();
    }
}

} // namespace schedlab::app
