// npu-doctor-kbc: the knowledge-base compiler, run by the build. Loads kb/*.yaml and
// kb/messages/*.yaml as shipped files, chooses the scan gate from the patterns themselves
// (src/core/scan_plan.hpp) and plans every pattern against it, runs the full lint (every
// sample recognised, every namespace reachable, the gate proven to pass every sample) and
// writes the snapshot that is embedded into npu-doctor. A broken knowledge base therefore
// fails the build, with file:line messages; the patterns the gate does not cover are named.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <unistd.h>

#include "kb_matcher.hpp"
#include "kb_snapshot.hpp"
#include "npu_doctor/kb_lint.hpp"
#include "scan_plan.hpp"

namespace nd = npu_doctor;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Chooses the gate, plans every pattern against it and prints what stays outside it.
nd::KnowledgeBase plan(nd::KnowledgeBase kb, std::string_view background, nd::GateOptions options) {
  struct Owner {
    std::string id;
    nd::SourceRef where;
    std::string regex;
  };
  std::vector<nd::GatePattern> patterns;
  std::vector<Owner> owners;
  for (const auto& x : kb.extractors()) {
    patterns.push_back({nd::required_literals(x.pattern.regex), false, "extractor:" + x.code_namespace});
    owners.push_back({x.id, x.source, x.pattern.regex});
  }
  for (const auto& e : kb.entries()) {
    for (const auto& p : e.patterns) {
      patterns.push_back({nd::required_literals(p.regex), e.level == nd::LevelRequirement::error, e.family});
      owners.push_back({e.id, e.source, p.regex});
    }
  }
  // The stack's ERROR-level messages (the catalogue's formats): what error vocabulary is.
  std::string error_text;
  for (const auto& e : kb.entries()) {
    if (e.origin == nd::Origin::source && !e.format.empty()) error_text += e.format + "\n";
  }
  options.background = background;
  options.error_text = error_text;
  nd::GateChoice choice = nd::choose_gate(patterns, options);
  std::vector<const nd::RequiredLiterals*> ungated;
  for (std::size_t i : choice.ungated) ungated.push_back(&patterns[i].literals);
  nd::ProbeOptions probe_options;
  probe_options.background = background;
  choice.gate.probes = nd::choose_probes(ungated, probe_options);

  std::cerr << "npu-doctor-kbc: scan gate: " << choice.gate.literals.size() << " literals";
  for (const auto& l : choice.gate.literals) std::cerr << " '" << l << "'";
  if (choice.gate.error_markers) std::cerr << " + error-level markers";
  std::cerr << "; " << patterns.size() - choice.ungated.size() << " of " << patterns.size()
            << " patterns gated\n";
  std::size_t own_regex = 0;
  for (std::size_t i : choice.ungated) {
    const auto& lits = patterns[i].literals;
    std::string why;
    if (nd::probes_cover(choice.gate.probes, lits)) {
      // The probes this pattern is found by (those its best-covered clause holds).
      std::vector<std::string> used;
      for (const auto& p : choice.gate.probes) {
        for (const auto& c : lits.clauses) {
          if (std::any_of(c.begin(), c.end(), [&](const std::string& s) { return s.find(p) != std::string::npos; }) &&
              std::find(used.begin(), used.end(), p) == used.end()) {
            used.push_back(p);
          }
        }
      }
      why = "is looked for in the first stage by {";
      for (std::size_t k = 0; k < used.size() && k < 8; ++k) why += (k ? ", '" : "'") + used[k] + "'";
      why += used.size() > 8 ? ", ...}" : "}";
      why += ", no gate literal";
    } else {
      ++own_regex;
      const auto* best = lits.best();
      why = "runs its own regex in the first stage, the costliest kind: ";
      if (best == nullptr) {
        why += "no literal text is certain in every match";
      } else {
        why += "every match holds one of {";
        for (std::size_t k = 0; k < best->size(); ++k) why += (k ? ", '" : "'") + (*best)[k] + "'";
        why += "}, too short or too many to look for";
      }
    }
    std::cerr << owners[i].where.file << ":" << owners[i].where.line << ": note: '" << owners[i].id << "' " << why
              << " (/" << owners[i].regex << "/)\n";
  }
  std::cerr << "npu-doctor-kbc: first stage: the gate, " << choice.gate.probes.size() << " probe literals for "
            << choice.ungated.size() - own_regex << " patterns, " << own_regex << " patterns by their own regex\n";
  const std::string version = kb.version();
  auto parts = std::move(kb).release();
  nd::plan_patterns(parts.entries, parts.extractors, choice.gate, false);
  nd::KnowledgeBase out(std::move(parts.entries), std::move(parts.extractors), version, std::move(parts.sources));
  out.set_gate(choice.gate);
  return out;
}

// The snapshot with the matcher's tables precomputed: written once without them, read back
// (the pattern ids follow the order a run reads the snapshot in), the matcher built on it as
// a run builds it, and the snapshot written again with its image (kb_matcher_image.cpp).
std::string with_matcher_image(const nd::KnowledgeBase& kb) {
  auto back = nd::read_kb_snapshot_copy(nd::write_kb_snapshot(kb));
  if (!back) throw std::runtime_error("the snapshot just written does not read back");
  std::vector<nd::KbProblem> problems;
  const auto matcher = nd::KbMatcher::build(*back, problems);
  return nd::write_kb_snapshot(kb, matcher->write_image());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: npu-doctor-kbc OUTPUT [--background FILE]... [--gate-words FILE] [--gate-size N] [--gate-min-gain N]\n"
                 "                        [--gate-min-families N] FILE.yaml...\n";
    return 2;
  }
  nd::KbLoadOptions opts;
  opts.embedded = false;
  std::string background;
  nd::GateOptions gate;  // defaults: scan_plan.hpp; the flags are for measuring other choices
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--gate-size" && i + 1 < argc) {
      gate.max_literals = static_cast<std::size_t>(std::stoul(argv[++i]));
    } else if (a == "--gate-words" && i + 1 < argc) {
      std::istringstream words(read_all(argv[++i]));
      for (std::string w; std::getline(words, w);) {
        if (!w.empty() && w.front() != '#') gate.always.push_back(w);
      }
    } else if (a == "--gate-min-gain" && i + 1 < argc) {
      gate.min_gain = static_cast<std::size_t>(std::stoul(argv[++i]));
    } else if (a == "--gate-min-families" && i + 1 < argc) {
      gate.min_families = static_cast<std::size_t>(std::stoul(argv[++i]));
    } else if (a == "--background" && i + 1 < argc) {
      background += read_all(argv[++i]);
      background += '\n';
    } else {
      opts.builtin_paths.emplace_back(a);
    }
  }
  std::vector<nd::KbProblem> problems;
  nd::KnowledgeBase kb = plan(nd::load_knowledge_base(opts, problems), background, gate);
  auto lint = nd::lint_knowledge_base(kb);
  problems.insert(problems.end(), lint.begin(), lint.end());
  int errors = 0;
  for (const auto& p : problems) {
    std::cerr << p.file << ":" << p.line << ": " << (p.is_error ? "error" : "warning") << ": " << p.message << "\n";
    errors += p.is_error ? 1 : 0;
  }
  if (errors > 0) {
    std::cerr << "npu-doctor-kbc: " << errors << " error(s) in the knowledge base\n";
    return 1;
  }
  const std::string out = argv[1];
  const std::string tmp = out + ".tmp." + std::to_string(::getpid());  // two runs never share one
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << with_matcher_image(kb);
    if (!f) {
      std::cerr << "npu-doctor-kbc: cannot write " << tmp << ": " << std::strerror(errno ? errno : EIO) << "\n";
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::cerr << "npu-doctor-kbc: cannot write " << out << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  return 0;
}
