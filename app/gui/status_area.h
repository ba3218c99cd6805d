#pragma once
// Where the window reports: the error banner above the tabs (non-modal, selectable, with the
// detail) and, in the status bar, the last message, the progress of the running work and its
// Cancel button.

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace schedlab::app {

class StatusArea : public QObject {
    Q_OBJECT
public:
    /// Adds the message, progress and Cancel to `bar`; the banner is for the caller to lay out.
    StatusArea(QWidget* window, QStatusBar* bar);
    QLabel* banner() const { return m_banner; }
    void showError(const QString& text);
    void clearError();
    /// The banner's text ("" when hidden).
    QString errorText() const;
    void showMessage(const QString& text);
    /// Work starts (progress at 0, Cancel shown) or ends (both hidden).
    void setBusy(bool busy);
    /// 0..1
    void setProgress(double fraction);

signals:
    void cancelRequested();

private:
    QLabel* m_banner = nullptr;
    QLabel* m_message = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace schedlab::app
