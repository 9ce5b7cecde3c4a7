#include "analyzers/hccl/ui_words.hpp"

namespace npu_doctor::hccl {

std::string_view word(Word w, Lang lang) {
  const bool zh = lang == Lang::zh;
  switch (w) {
    case Word::files: return zh ? "文件" : "Files";
    case Word::file_count: return zh ? "个文件" : "files";  // after a number
    case Word::variables: return zh ? "变量" : "Variables";
    case Word::agree: return zh ? "一致" : "agree";
    case Word::differ: return zh ? "不一致" : "DIFFER";
    case Word::unset: return zh ? "未设置" : "unset";
    case Word::default_word: return zh ? "默认" : "default";
    case Word::ranks: return zh ? "rank 覆盖" : "Ranks";
    case Word::missing: return zh ? "缺失" : "missing";
    case Word::duplicates: return zh ? "重复" : "duplicates";
    case Word::no_problems: return zh ? "未发现问题。" : "No problems found.";
    case Word::problems: return zh ? "发现的问题" : "Problems found";
    case Word::findings: return zh ? "项发现" : "findings";
    case Word::errors: return zh ? "个错误" : "errors";
    case Word::warnings: return zh ? "个警告" : "warnings";
    case Word::notes: return zh ? "说明" : "notes";
    case Word::unreadable: return zh ? "无法读取" : "could not be read";
    case Word::devices: return zh ? "设备" : "Devices";
    case Word::node: return zh ? "节点" : "node";
    case Word::device: return zh ? "设备" : "device";
    case Word::link: return zh ? "链路" : "link";
    case Word::health: return zh ? "网络健康" : "health";
    case Word::ip: return "IP";
    case Word::tls: return "TLS";
    case Word::link_downs: return zh ? "断链次数" : "link downs";
    case Word::rows: return zh ? "结果行" : "rows";
    case Word::data_size: return zh ? "数据量(B)" : "size (B)";
    case Word::avg_time: return zh ? "平均耗时(us)" : "avg time (us)";
    case Word::bandwidth: return zh ? "算法带宽(GB/s)" : "alg bw (GB/s)";
    case Word::check: return zh ? "校验" : "check";
    case Word::peak: return zh ? "峰值带宽" : "peak bandwidth";
    case Word::expected: return zh ? "期望" : "expected";
    case Word::rank_table: return zh ? "rank 表" : "Rank table";
    case Word::servers: return zh ? "服务器" : "servers";
    case Word::version: return zh ? "版本" : "version";
    case Word::status: return zh ? "状态" : "status";
    case Word::links: return zh ? "链路" : "Links";
    case Word::from: return zh ? "源" : "from";
    case Word::to: return zh ? "目标" : "to";
    case Word::connect: return zh ? "建连(ms)" : "connect (ms)";
    case Word::rtt: return zh ? "往返时延 p50/p99 (ms)" : "RTT p50/p99 (ms)";
    case Word::up: return zh ? "发送" : "send";
    case Word::down: return zh ? "接收" : "receive";
    case Word::this_host: return zh ? "本机" : "this host";
    case Word::hosts: return zh ? "主机" : "Hosts";
    case Word::host_problem: return zh ? "问题主机" : "host at fault";
    case Word::runs: return zh ? "运行" : "Runs";
    case Word::command: return zh ? "命令" : "Command";
    case Word::result: return zh ? "结果" : "result";
    case Word::pass: return zh ? "通过" : "PASS";
    case Word::fail: return zh ? "失败" : "FAIL";
    case Word::timed_out: return zh ? "超时" : "TIMEOUT";
    case Word::devices_set: return "ASCEND_RT_VISIBLE_DEVICES";
    case Word::output_tail: return zh ? "输出末尾" : "last output";
    case Word::likely_cause: return zh ? "日志分析" : "diagnosis of its output";
    case Word::verdict: return zh ? "结论" : "Verdict";
    case Word::not_measured: return zh ? "未测" : "not measured";
    case Word::summary: return zh ? "汇总" : "Summary";
    case Word::fix: return zh ? "修复" : "Fix";
    case Word::detail: return zh ? "详情" : "detail";
    case Word::lost: return zh ? "超时的 ping" : "lost pings";
    case Word::seconds: return zh ? "秒" : "s";
    case Word::not_run: return zh ? "未运行" : "not run";
    case Word::plan: return zh ? "计划" : "Plan";
    case Word::saved_output: return zh ? "完整输出" : "full output";
  }
  return "";
}

}  // namespace npu_doctor::hccl
