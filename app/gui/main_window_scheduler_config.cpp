// The Policies dock's "Scheduler config" row: a KubeSchedulerConfiguration file for k8s-default and
// k8s-sampling runs (policy/k8s_scheduler_config.h), checked when chosen, remembered across sessions.

#include "main_window.h"

#include "policy/k8s_scheduler_config.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>

namespace schedlab::app {

QWidget* MainWindow::buildSchedulerConfigRow(QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_schedulerConfigButton = new QPushButton(tr("built-in"), row);
    m_schedulerConfigButton->setObjectName("schedulerConfigButton");
    auto* clear = new QToolButton(row);
    clear->setObjectName("schedulerConfigClear");
    clear->setText(tr("Clear"));
    clear->setToolTip(tr("Back to the built-in k8s-default (LeastAllocated + BalancedAllocation, every node scored)"));
    h->addWidget(m_schedulerConfigButton, 1);
    h->addWidget(clear);
    connect(m_schedulerConfigButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("KubeSchedulerConfiguration"),
            QSettings().value("paths/schedulerConfig").toString(), tr("YAML (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            setSchedulerConfig(path);
    });
    connect(clear, &QToolButton::clicked, this, [this] { setSchedulerConfig({}); });
    // The last one chosen, if it still reads; quietly the built-in one otherwise.
    const QString remembered = QSettings().value("paths/schedulerConfig").toString();
    if (!remembered.isEmpty() && QFileInfo::exists(remembered)) {
        std::string text;
        if (auto c = policy::readKubeSchedulerConfig(remembered.toStdString(), &text)) {
            m_schedulerConfig = text;
            m_schedulerConfigButton->setText(QFileInfo(remembered).fileName());
            m_schedulerConfigButton->setToolTip(QString::fromStdString(c->summary()));
        }
    }
    if (m_schedulerConfig.empty())
        m_schedulerConfigButton->setToolTip(tr("A KubeSchedulerConfiguration (YAML) for k8s-default and k8s-sampling: score plugin "
                                               "weights, NodeResourcesFit strategy, percentageOfNodesToScore"));
    return row;
}

bool MainWindow::setSchedulerConfig(const QString& path)
{
    if (path.isEmpty()) {
        m_schedulerConfig.clear();
        m_schedulerConfigButton->setText(tr("built-in"));
        m_schedulerConfigButton->setToolTip(tr("k8s-default: LeastAllocated + BalancedAllocation, weight 1 each, every node scored"));
        QSettings().remove("paths/schedulerConfig");
        return true;
    }
    std::string text;
    auto c = policy::readKubeSchedulerConfig(path.toStdString(), &text);
    if (!c) {
        showError(QString::fromStdString(c.error().toString()));
        return false;
    }
    m_schedulerConfig = std::move(text);
    QString tip = QString::fromStdString(c->summary());
    if (!c->unmodelled.empty()) {
        QStringList u;
        for (const std::string& s : c->unmodelled)
            u << QString::fromStdString(s);
        tip += tr("\nNot modelled (they score every node alike here): %1").arg(u.join(", "));
    }
    m_schedulerConfigButton->setText(QFileInfo(path).fileName());
    m_schedulerConfigButton->setToolTip(tip);
    QSettings().setValue("paths/schedulerConfig", QFileInfo(path).absoluteFilePath());
    m_status->setText(tr("Scheduler configuration: %1").arg(QString::fromStdString(c->summary())));
    return true;
}

QString MainWindow::schedulerConfigLabel() const { return m_schedulerConfigButton->text(); }

} // namespace schedlab::app
