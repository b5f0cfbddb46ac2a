#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// A buffered writer to a stdio stream for large outputs (millions of lines):
/// it appends to a string and writes it out in large blocks.
class output {
 public:
  explicit output(std::FILE* stream = stdout) : stream_(stream) {}
  output(const output&) = delete;
  auto operator=(const output&) -> output& = delete;
  ~output() { flush(); }

  /// Returns the buffer to append text to; it is written out by maybe_flush() or flush().
  auto buffer() -> std::string& { return buffer_; }
  void write(std::string_view text) {
    buffer_ += text;
    maybe_flush();
  }
  /// Appends any value with append_to(std::string&), then a newline.
  template <class T>
  void line(const T& value) {
    value.append_to(buffer_);
    buffer_ += '\n';
    maybe_flush();
  }
  void maybe_flush() {
    if (buffer_.size() >= (1u << 20)) flush();
  }
  /// Writes out the buffer; returns false if the stream reported an error, now
  /// or before (what comes after an error is dropped). An error on standard
  /// output is reported on standard error ("> /dev/full"), with the errno of
  /// the write that failed (ENOSPC, EPIPE, ...).
  auto flush() -> bool;
  /// Reports whether a write failed.
  auto failed() const -> bool { return failed_; }

 private:
  std::FILE* stream_;
  std::string buffer_;
  bool failed_ = false;
};

/// Prints "cidrcheck: error: cannot write to standard output: WHY" on
/// standard error, the first time it is called in the process only.
void report_standard_output_error(int error);

/// Flushes standard output (what std::cout and stdio hold) at the end of a
/// run; reports an error of it, now or earlier, as report_standard_output_error
/// does, and returns false then.
auto finish_standard_output() -> bool;

}  // namespace cidrcheck::cli
