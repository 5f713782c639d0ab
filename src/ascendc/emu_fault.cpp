// Hardware faults in a kernel: SIGSEGV/SIGBUS/SIGFPE/SIGILL on a block's thread jump back to
// its launcher (CrashGuard) and become an error of that block instead of ending the process.
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <string>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// Turns SIGSEGV/SIGBUS/SIGFPE/SIGILL on a block's thread into an error of that block.
// Other threads keep the process's previous handling.
thread_local sigjmp_buf* t_jump = nullptr;
thread_local int t_signal = 0;
thread_local void* t_fault_addr = nullptr;
struct sigaction g_previous[32];

void OnFault(int sig, siginfo_t* info, void* ctx) {
  if (t_jump) {
    t_signal = sig;
    t_fault_addr = info ? info->si_addr : nullptr;
    siglongjmp(*t_jump, 1);
  }
  // Not a kernel thread: behave as before we were installed.
  const struct sigaction& prev = g_previous[sig];
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) return prev.sa_sigaction(sig, info, ctx);
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    return prev.sa_handler(sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallFaultHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, &g_previous[sig]);
  });
}

}  // namespace

CrashGuard::CrashGuard() {
  InstallFaultHandlers();
  stack_t ss{};
  ss.ss_sp = stack.data();
  ss.ss_size = stack.size();
  sigaltstack(&ss, nullptr);  // the handler runs even when the fault is a stack overflow
}

CrashGuard::~CrashGuard() {
  Disarm();
  stack_t ss{};
  ss.ss_flags = SS_DISABLE;
  sigaltstack(&ss, nullptr);
}

void CrashGuard::Arm() { t_jump = &jump; }
void CrashGuard::Disarm() { t_jump = nullptr; }

std::string CrashGuard::Describe() const {
  const char* name = t_signal == SIGSEGV  ? "SIGSEGV (invalid memory access)"
                     : t_signal == SIGBUS ? "SIGBUS (misaligned or unmapped access)"
                     : t_signal == SIGFPE ? "SIGFPE (arithmetic fault)"
                                          : "SIGILL (illegal instruction)";
  char addr[32];
  std::snprintf(addr, sizeof(addr), "%p", t_fault_addr);
  return std::string("the kernel crashed: ") + name + " at address " + addr;
}

}  // namespace detail
}  // namespace AscendC
