#pragma once
// Long C++ calls that Ctrl-C interrupts. Python runs signal handlers only in
// the main thread between bytecodes, so a plan of many seconds would keep
// KeyboardInterrupt waiting until it returned. interruptible() runs the call
// on a worker thread with the GIL released and checks for signals every
// 50 ms; when a handler raises, the call returns to Python at once with that
// exception. The library has no way to stop a plan midway, so the worker is
// detached and finishes on its own, its result dropped: the call must own (or
// share) everything it uses and must not touch Python objects. The
// interpreter waits at exit for a worker still running
// (wait_for_detached_workers(), registered with atexit by the module): one
// that ran on while the process tore down its statics would crash it.

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <future>
#include <mutex>
#include <memory>
#include <thread>
#include <utility>

namespace cidrcheck::python {

// The workers still running, interrupted or not.
struct running_workers {
  std::mutex m;
  std::condition_variable none_left;
  std::size_t count = 0;
};
inline auto workers() -> running_workers& {
  static auto* w = new running_workers;  // never destroyed: a detached worker may outlive static destruction
  return *w;
}

/// Waits, without the GIL, until no worker runs: at exit, for those Ctrl-C left running.
inline void wait_for_detached_workers() {
  pybind11::gil_scoped_release unlocked;
  auto& w = workers();
  std::unique_lock lock(w.m);
  w.none_left.wait(lock, [&] { return w.count == 0; });
}

template <class F>
auto interruptible(F call) -> decltype(call()) {
  namespace py = pybind11;
  using result_type = decltype(call());
  auto task = std::make_shared<std::packaged_task<result_type()>>(std::move(call));
  auto result = task->get_future();
  {
    std::lock_guard lock(workers().m);
    ++workers().count;
  }
  std::thread worker([task] {
    (*task)();
    auto& w = workers();
    std::lock_guard lock(w.m);
    if (--w.count == 0) w.none_left.notify_all();
  });
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
