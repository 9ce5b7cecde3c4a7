// npu-doctor net serve|test: the network between nodes, measured with npu-doctor's own TCP
// server and client (docs/net.md): reachability, round-trip latency, throughput, and the
// all-pairs matrix that points at the broken or slow link.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <iostream>

#include "hccl/input_file.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finding_report_output.hpp"
#include "endpoint.hpp"
#include "matrix.hpp"
#include "net_analysis.hpp"
#include "net_render.hpp"
#include "server.hpp"
#include "units.hpp"

namespace npu_doctor::cli {
namespace {

using namespace npu_doctor::net;

struct ServeArgs {
  int port = kDefaultPort;
  std::string bind;
  std::string max_rate;
  bool no_relay = false;
  std::size_t max_clients = 32;
  std::chrono::milliseconds idle_timeout{30000};
  std::optional<std::chrono::milliseconds> exit_after;
};

int run_serve(const ServeArgs& a) {
  ServerOptions o;
  o.bind = a.bind;
  o.port = static_cast<uint16_t>(a.port);
  o.allow_relay = !a.no_relay;
  o.max_clients = a.max_clients;
  if (!a.max_rate.empty()) {
    const auto bps = parse_rate_bps(a.max_rate);
    if (!bps) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_net_max_rate, fmt::arg("value", a.max_rate)) << "\n";
      return kUsage;
    }
    o.max_rate = *bps / 8;
  }
  o.idle_timeout = a.idle_timeout;
  const auto exit_after = a.exit_after;
  // SIGINT/SIGTERM are taken synchronously below: block them before any thread starts.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::string error;
  auto server = NetServer::start(o, &error);
  if (!server) {
    std::cerr << "npu-doctor: "
              << msg(ui::Key::error_net_cannot_listen, fmt::arg("address", a.bind.empty() ? "*" : a.bind),
                     fmt::arg("port", a.port), fmt::arg("why", error))
              << "\n";
    return kUsage;
  }
  std::cout << "npu-doctor net serve: listening on " << server->address() << " port " << server->port()
            << (o.allow_relay ? "" : " (no relay)") << std::endl;
  for (;;) {
    timespec ts{};
    const long long ms = exit_after ? exit_after->count() : 3600000LL;
    ts.tv_sec = static_cast<time_t>(ms / 1000);
    ts.tv_nsec = static_cast<long>((ms % 1000) * 1000000);
    const int sig = sigtimedwait(&stop_signals, nullptr, &ts);
    if (sig > 0 || exit_after) break;
    if (sig < 0 && errno != EAGAIN && errno != EINTR) break;
  }
  server->stop();
  std::cout << "npu-doctor net serve: stopped after " << server->connections_served() << " connections" << std::endl;
  return kOk;
}

struct TestArgs {
  std::vector<std::string> hosts;
  std::string matrix;
  int port = kDefaultPort;
  int pings = 20;
  std::chrono::milliseconds duration{2000};
  std::chrono::milliseconds connect_timeout{3000};
  std::chrono::milliseconds answer_timeout{3000};
  bool no_throughput = false;
  std::string expect;
  std::optional<double> max_rtt_ms;
  double min_ratio = 0.5;
  bool sequential = false;
  std::string format = "text";
  std::string output = "-";
};

int run_test(const GlobalOptions& g, const TestArgs& a) {
  if (a.hosts.empty() == a.matrix.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_net_hosts_or_matrix) << "\n";
    return kUsage;
  }
  LinkTestOptions lo;
  lo.pings = a.pings;
  lo.duration = a.no_throughput ? std::chrono::milliseconds(0) : a.duration;
  lo.connect_timeout = a.connect_timeout;
  lo.answer_timeout = a.answer_timeout;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  lo.self_name = host;

  NetAnalysisOptions ao;
  ao.max_rtt_ms = a.max_rtt_ms;
  ao.min_ratio = a.min_ratio;
  if (!a.expect.empty()) {
    ao.expect_bps = parse_rate_bps(a.expect);
    if (!ao.expect_bps) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_net_expect_throughput, fmt::arg("value", a.expect)) << "\n";
      return kUsage;
    }
  }
  const auto port = static_cast<uint16_t>(a.port);
  std::vector<Endpoint> targets;
  if (!a.matrix.empty()) {
    const hccl::InputText in = hccl::read_input(a.matrix, 4u << 20);
    if (!in.ok()) {
      std::cerr << "npu-doctor: " << a.matrix << ": " << in.error << "\n";
      return kUsage;
    }
    std::string error;
    auto entries = parse_hostfile(in.text, port, &error);
    if (!entries) {
      std::cerr << "npu-doctor: " << a.matrix << ": " << error << "\n";
      return kUsage;
    }
    for (const auto& e : *entries) targets.push_back(e.endpoint);
    if (targets.size() < 2) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_net_matrix_too_small, fmt::arg("path", a.matrix), fmt::arg("n", targets.size()))
                << "\n";
      return kUsage;
    }
  } else {
    for (const auto& h : a.hosts) {
      std::string error;
      auto e = parse_endpoint(h, port, &error);
      if (!e) {
        std::cerr << "npu-doctor: net test: " << error << "\n";
        return kUsage;
      }
      targets.push_back(*e);
    }
  }
  auto kb = load_kb(g, std::cerr);
  NetReport report;
  if (!a.matrix.empty()) {
    MatrixOptions mo;
    mo.link = lo;
    mo.parallel = !a.sequential;
    report = analyse_matrix(run_matrix(targets, mo), lo, ao, *kb);
  } else {
    std::vector<LinkResult> links;
    for (const auto& t : targets) links.push_back(test_link(t, lo));
    report = analyse_direct(targets, std::move(links), lo, ao, *kb);
  }
  return write_finding_report(g, a.output, a.format, report, &render_net_json, &render_net_text);
}

}  // namespace

void setup_net(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* net = app.add_subcommand("net", help_text(ui::Key::help_net_about));
  net->require_subcommand(1);

  auto sa = std::make_shared<ServeArgs>();
  CLI::App* s = net->add_subcommand("serve", help_text(ui::Key::help_net_serve_about));
  s->add_option("-p,--port", sa->port, help_text(ui::Key::help_net_serve_port))->check(CLI::Range(0, 65535));
  s->add_option("--bind", sa->bind, help_text(ui::Key::help_net_serve_bind))->type_name("ADDR");
  s->add_option("--max-rate", sa->max_rate, help_text(ui::Key::help_net_serve_max_rate))
      ->type_name("RATE");
  s->add_flag("--no-relay", sa->no_relay, help_text(ui::Key::help_net_serve_no_relay));
  s->add_option("--max-clients", sa->max_clients, help_text(ui::Key::help_net_serve_max_clients))->check(CLI::Range(1, 4096));
  add_duration_option(s, "--idle-timeout", sa->idle_timeout, help_text(ui::Key::help_net_serve_idle_timeout),
                      {std::chrono::milliseconds(100)});
  add_duration_option(s, "--exit-after", sa->exit_after, help_text(ui::Key::help_net_serve_exit_after));
  s->footer(help_text(ui::Key::help_net_serve_footer));
  s->callback([&exit_code, sa] { exit_code = run_serve(*sa); });

  auto ta = std::make_shared<TestArgs>();
  CLI::App* t = net->add_subcommand(
      "test", help_text(ui::Key::help_net_test_about));
  t->add_option("hosts", ta->hosts, help_text(ui::Key::help_net_test_hosts));
  t->add_option("--matrix", ta->matrix, help_text(ui::Key::help_net_test_matrix))
      ->type_name("HOSTFILE");
  t->add_option("-p,--port", ta->port, help_text(ui::Key::help_net_test_port))->check(CLI::Range(1, 65535));
  t->add_option("--pings", ta->pings, help_text(ui::Key::help_net_test_pings))->check(CLI::Range(0, 10000));
  add_duration_option(t, "--duration", ta->duration, help_text(ui::Key::help_net_test_duration),
                      {std::chrono::milliseconds(0), std::chrono::minutes(10)});
  t->add_flag("--no-throughput", ta->no_throughput, help_text(ui::Key::help_net_test_no_throughput));
  add_duration_option(t, "--connect-timeout", ta->connect_timeout, help_text(ui::Key::help_net_test_connect_timeout),
                      {std::chrono::milliseconds(10)});
  add_duration_option(t, "--answer-timeout", ta->answer_timeout, help_text(ui::Key::help_net_test_answer_timeout),
                      {std::chrono::milliseconds(10)});
  t->add_option("--expect-throughput", ta->expect, help_text(ui::Key::help_net_test_expect_throughput))
      ->type_name("RATE");
  t->add_option("--max-rtt", ta->max_rtt_ms, help_text(ui::Key::help_net_test_max_rtt))
      ->check(CLI::PositiveNumber)
      ->type_name("MS");
  t->add_option("--min-ratio", ta->min_ratio, help_text(ui::Key::help_net_test_min_ratio))
      ->check(CLI::Range(0.01, 1.0))
      ->type_name("RATIO");
  t->add_flag("--sequential", ta->sequential, help_text(ui::Key::help_net_test_sequential));
  t->add_option("-f,--format", ta->format, help_text(ui::Key::help_net_test_format))->check(CLI::IsMember({"text", "json"}));
  t->add_option("-o,--output", ta->output, help_text(ui::Key::help_net_test_output))->type_name("FILE");
  t->footer(help_text(ui::Key::help_net_test_footer));
  t->callback([&g, &exit_code, ta] { exit_code = run_test(g, *ta); });
}

}  // namespace npu_doctor::cli
