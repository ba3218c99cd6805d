#pragma once
// The side docks per tab: the Incidents and Sweeps tabs want the width the Trace dock takes, the
// Autoscaling tab none of the placement docks; what the user shows or hides on a tab is
// remembered for that tab (QSettings "tabDocks/<tab>/<dock>").

#include <QObject>

class QMainWindow;
class QTabWidget;

namespace schedlab::app {

class TabDocks : public QObject {
    Q_OBJECT
public:
    /// Follows `tabs`, showing and hiding the docks of `window`.
    TabDocks(QMainWindow* window, QTabWidget* tabs);

private:
    void show(int tab);
    QMainWindow* m_window;
    int m_lastTab = 0; ///< the tab whose dock visibility is saved when another is shown
};

} // namespace schedlab::app
