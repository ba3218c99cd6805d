#include "status_area.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace schedlab::app {

StatusArea::StatusArea(QWidget* window, QStatusBar* bar)
    : QObject(window)
{
    m_banner = new QLabel(window);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet("QLabel { background: #fde2e1; color: #611; padding: 6px; border: 1px solid #e99; }");
    m_progress = new QProgressBar(window);
    m_progress->setObjectName("statusProgress");
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), window);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, this, &StatusArea::cancelRequested);
    m_message = new QLabel(tr("Open a trace (Ctrl+O) or drop files here"), window);
    bar->addWidget(m_message, 1);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
}

void StatusArea::showError(const QString& text)
{
    m_banner->setText(text);
    m_banner->setVisible(true);
}

void StatusArea::clearError() { m_banner->setVisible(false); }

QString StatusArea::errorText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

void StatusArea::showMessage(const QString& text) { m_message->setText(text); }

void StatusArea::setBusy(bool busy)
{
    if (busy)
        m_progress->setValue(0);
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
}

void StatusArea::setProgress(double fraction) { m_progress->setValue(int(fraction * 1000)); }

} // namespace schedlab::app
