// The Autoscaling tab in the window: its view and controller, and File > Open Request Load.

#include "main_window.h"

#include <QTabWidget>

namespace schedlab::app {

void MainWindow::buildAutoscaleTab()
{
    m_autoscaleView = new views::AutoscaleView(m_tabs);
    m_autoscale = new AutoscaleController(m_autoscaleView, this);
    m_autoscale->setProjectProvider([this] { return m_session.project(); }); // runs stored in the open project
    m_tabs->addTab(m_autoscaleView, tr("Autoscaling"));
}

void MainWindow::openAutoscaleLoad(const QString& loadPath, const QString& servicePath, bool run)
{
    m_autoscaleView->setLoadPath(loadPath);
    if (!servicePath.isNull())
        m_autoscaleView->setServicePath(servicePath);
    m_tabs->setCurrentWidget(m_autoscaleView);
    if (run)
        m_autoscale->run();
}

} // namespace schedlab::app
