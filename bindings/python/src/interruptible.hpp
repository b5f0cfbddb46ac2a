#pragma once
// Long C++ calls that Ctrl-C interrupts. Python runs signal handlers only in
// the main thread between bytecodes, so a plan of many seconds would keep
// KeyboardInterrupt waiting until it returned. interruptible() runs the call
// on a worker thread with the GIL released and checks for signals every
// 50 ms; when a handler raises, the call returns to Python at once with that
// exception. The library has no way to stop a plan midway, so the worker is
// detached and finishes on its own, its result dropped: the call must own (or
// share) everything it uses and must not touch Python objects.

#include <pybind11/pybind11.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <utility>

namespace cidrcheck::python {

template <class F>
auto interruptible(F call) -> decltype(call()) {
  namespace py = pybind11;
  using result_type = decltype(call());
  auto task = std::make_shared<std::packaged_task<result_type()>>(std::move(call));
  auto result = task->get_future();
  std::thread worker([task] { (*task)(); });
  for (;;) {
    bool ready = false;
    {
      py::gil_scoped_release unlocked;
      ready = result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
    }
    if (ready) break;
    if (PyErr_CheckSignals() != 0) {
      worker.detach();
      throw py::error_already_set();
    }
  }
  worker.join();
  return result.get();
}

}  // namespace cidrcheck::python
