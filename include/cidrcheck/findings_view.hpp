#pragma once
// Findings with their fingerprints as a report reads them: every finding of an
// analysis, or those a selection shows, without a copy (a fleet can have a
// million findings; a copy of each shown one doubled a check's memory).

#include <cidrcheck/fleet/finding.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>

namespace cidrcheck {

/// A view of findings and their fingerprints (fingerprints[k] is findings[k]'s):
/// all of them, or those at the given indexes, in the indexes' order. Valid
/// while the findings, fingerprints and indexes it views live.
class findings_view {
 public:
  findings_view() = default;
  /// Every finding. Precondition: fingerprints.size() == findings.size().
  findings_view(std::span<const finding> findings, std::span<const std::string> fingerprints)
      : findings_(findings), fingerprints_(fingerprints), every_(true) {}
  /// The findings at `at`. Precondition: each index < findings.size() == fingerprints.size().
  findings_view(std::span<const finding> findings, std::span<const std::string> fingerprints,
                std::span<const std::uint32_t> at)
      : findings_(findings), fingerprints_(fingerprints), at_(at) {}

  auto size() const -> std::size_t { return every_ ? findings_.size() : at_.size(); }
  auto empty() const -> bool { return size() == 0; }
  /// The k-th finding in view. Precondition: k < size().
  auto operator[](std::size_t k) const -> const finding& { return findings_[index(k)]; }
  /// The k-th finding's fingerprint. Precondition: k < size().
  auto fingerprint(std::size_t k) const -> const std::string& { return fingerprints_[index(k)]; }
  /// Where the k-th finding is in the findings viewed. Precondition: k < size().
  auto index(std::size_t k) const -> std::size_t { return every_ ? k : at_[k]; }

  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = finding;
    using difference_type = std::ptrdiff_t;
    using pointer = const finding*;
    using reference = const finding&;

    iterator() = default;
    iterator(const findings_view* view, std::size_t k) : view_(view), k_(k) {}
    auto operator*() const -> const finding& { return (*view_)[k_]; }
    auto operator->() const -> const finding* { return &(*view_)[k_]; }
    auto operator++() -> iterator& {
      ++k_;
      return *this;
    }
    auto operator++(int) -> iterator {
      auto was = *this;
      ++k_;
      return was;
    }
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
  bool every_ = false;
};

}  // namespace cidrcheck
