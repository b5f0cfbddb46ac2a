#pragma once
// Shared-object tests: run the same reads on several threads at once and compare
// each thread's answers with the answers one thread gets. A race can then fail a
// test twice over: as a wrong answer here, and as a report under ThreadSanitizer
// (the tsan preset runs these tests).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace cidrcheck::test {

/// How many threads read each shared object.
inline constexpr std::size_t reader_threads = 8;

/// What one reader saw: one labelled line per question ("contains: 0110...").
using answers = std::vector<std::string>;

/// Calls work(t) on `threads` threads (t = 0 .. threads - 1) and returns what each
/// returned, in thread order. A latch holds every thread until all have started,
/// so their first calls overlap. An exception thrown in a thread is rethrown here.
template <class F>
auto concurrently(std::size_t threads, F work) -> std::vector<std::invoke_result_t<F&, std::size_t>> {
  using result = std::invoke_result_t<F&, std::size_t>;
  std::vector<std::optional<result>> results(threads);
  std::vector<std::exception_ptr> errors(threads);
  std::latch start(static_cast<std::ptrdiff_t>(threads));
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        start.arrive_and_wait();
        try {
          results[t] = work(t);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    }
  }  // the jthreads join here
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  std::vector<result> out;
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

/// Returns "" when got equals want, else where the first difference is, with a
/// little of each side (the lines can be long).
inline auto first_difference(const answers& got, const answers& want) -> std::string {
  auto excerpt = [](const std::string& line, std::size_t at) { return line.substr(at, 60); };
  for (std::size_t k = 0; k < std::max(got.size(), want.size()); ++k) {
    if (k >= got.size()) return "missing line " + std::to_string(k) + ": " + excerpt(want[k], 0);
    if (k >= want.size()) return "extra line " + std::to_string(k) + ": " + excerpt(got[k], 0);
    if (got[k] == want[k]) continue;
    auto at = static_cast<std::size_t>(
        std::mismatch(got[k].begin(), got[k].end(), want[k].begin(), want[k].end()).first - got[k].begin());
    return "line " + std::to_string(k) + " (" + want[k].substr(0, want[k].find(':')) + ") differs at byte " +
           std::to_string(at) + ": got \"" + excerpt(got[k], at) + "\", want \"" + excerpt(want[k], at) + "\"";
  }
  return "";
}

/// Expects every thread's answers to be the single-threaded reference.
inline void expect_same_answers(const std::vector<answers>& per_thread, const answers& reference) {
  ASSERT_FALSE(reference.empty());
  for (std::size_t t = 0; t < per_thread.size(); ++t) {
    EXPECT_EQ(first_difference(per_thread[t], reference), "") << "thread " << t;
  }
}

/// Appends text + ", " for each item, as the lines of an answer sheet list things.
template <class Range, class ToText>
auto joined(const Range& items, ToText to_text) -> std::string {
  std::string out;
  for (const auto& item : items) {
    out += to_text(item);
    out += ", ";
  }
  return out;
}

}  // namespace cidrcheck::test
