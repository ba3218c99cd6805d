#pragma once
// Shared by the workbench tests: imports run in the background, so a test starts one and waits.

#include "main_window.h"

#include <QSignalSpy>

#include <string>
#include <vector>

namespace schedlab::test {

/// Starts importing `files` in `w` and waits for the import's end; true when the trace is open.
inline bool openAndWait(app::MainWindow& w, const std::vector<std::string>& files)
{
    QSignalSpy opened(&w, &app::MainWindow::traceOpened);
    if (!w.openTrace(files) || !opened.wait(120000))
        return false;
    return opened[0][0].toBool();
}

} // namespace schedlab::test
