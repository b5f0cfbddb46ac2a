#pragma once
// Findings with their fingerprints as a report reads them: every finding of an
// analysis, or those a selection shows, without a copy, each overlap finding
// described as it is read (a fleet can have a million; a copy of each shown
// one, and the text of each held all along, were most of a check's memory).

#include <cidrcheck/fleet/finding.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string>

namespace cidrcheck {

class overlap_describer;  // <cidrcheck/fleet/check.hpp>

/// A view of findings and their fingerprints (fingerprints[k] is findings[k]'s):
/// all of them, or those at the given indexes, in the indexes' order. Reading
/// one gives it with its text: an overlap finding held without it (check() with
/// describe_overlaps off) is described then, with the describer given. Valid
/// while the findings, fingerprints and indexes it views live.
class findings_view {
 public:
  findings_view() = default;
  /// Every finding. Precondition: fingerprints.size() == findings.size().
  findings_view(std::span<const finding> findings, std::span<const std::string> fingerprints,
                std::shared_ptr<const overlap_describer> describer = nullptr)
      : findings_(findings), fingerprints_(fingerprints), describer_(std::move(describer)), every_(true) {}
  /// The findings at `at`. Precondition: each index < findings.size() == fingerprints.size().
  findings_view(std::span<const finding> findings, std::span<const std::string> fingerprints,
                std::span<const std::uint32_t> at, std::shared_ptr<const overlap_describer> describer = nullptr)
      : findings_(findings), fingerprints_(fingerprints), at_(at), describer_(std::move(describer)) {}

  auto size() const -> std::size_t { return every_ ? findings_.size() : at_.size(); }
  auto empty() const -> bool { return size() == 0; }
  /// The k-th finding in view, with its text. Precondition: k < size().
  auto operator[](std::size_t k) const -> finding;
  /// The k-th finding as held: an overlap finding may lack its text. For what
  /// needs no text (rule, severity, ranges), without a copy. Precondition: k < size().
  auto stored(std::size_t k) const -> const finding& { return findings_[index(k)]; }
  /// The k-th finding's fingerprint. Precondition: k < size().
  auto fingerprint(std::size_t k) const -> const std::string& { return fingerprints_[index(k)]; }
  /// Where the k-th finding is in the findings viewed. Precondition: k < size().
  auto index(std::size_t k) const -> std::size_t { return every_ ? k : at_[k]; }

  /// Reads the findings in order, each as operator[] gives it.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = finding;
    using difference_type = std::ptrdiff_t;
    using reference = finding;

    iterator() = default;
    iterator(const findings_view* view, std::size_t k) : view_(view), k_(k) {}
    auto operator*() const -> finding { return (*view_)[k_]; }
    auto operator++() -> iterator& {
      ++k_;
      return *this;
    }
    void operator++(int) { ++k_; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.k_ == b.k_; }

   private:
    const findings_view* view_ = nullptr;
    std::size_t k_ = 0;
  };
  auto begin() const -> iterator { return {this, 0}; }
  auto end() const -> iterator { return {this, size()}; }

 private:
  std::span<const finding> findings_;
  std::span<const std::string> fingerprints_;
  std::span<const std::uint32_t> at_;
  std::shared_ptr<const overlap_describer> describer_;
  bool every_ = false;
};

}  // namespace cidrcheck
