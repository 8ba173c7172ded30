#include "frontend/shell/line_editor.h"

#include <histedit.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <clocale>
#include <cwchar>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "frontend/shell/interrupt.h"

namespace caracal::frontend {

std::string HistoryFile(const ShellVariables& variables) {
  if (std::optional<std::string> f = variables.Get("HISTFILE"); f && !f->empty()) {
    if ((*f)[0] == '~' && std::getenv("HOME")) return std::string(std::getenv("HOME")) + f->substr(1);
    return *f;
  }
  if (const char* env = std::getenv("CARACAL_HISTORY"); env && *env) return env;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.caracal_history";
  return "";
}

namespace {

// Whether `entry` goes into the history under HISTCONTROL.
bool Keep(const std::string& entry, const std::string& last, HistControl control) {
  if (entry.empty()) return false;
  if ((control == HistControl::kIgnoreSpace || control == HistControl::kIgnoreBoth) && entry[0] == ' ') return false;
  if ((control == HistControl::kIgnoreDups || control == HistControl::kIgnoreBoth) && entry == last) return false;
  return true;
}

// The prompt, typed line by line without editing (-n, or no libedit).
class PlainTerminal : public LineSource {
 public:
  std::optional<std::string> ReadLine(const std::string& prompt) override {
    interrupted_ = false;
    std::cout << prompt << std::flush;
    std::string line;
    for (;;) {
      WaitResult wait = WaitForInput(STDIN_FILENO);
      if (wait == WaitResult::kInterrupted) {
        interrupted_ = true;
        return std::nullopt;
      }
      if (wait == WaitResult::kOtherSignal) continue;
      char c;
      ssize_t n = read(STDIN_FILENO, &c, 1);
      if (n == 1) {
        if (c == '\n') return line;
        line += c;
        continue;
      }
      if (n < 0 && errno == EINTR) {
        if (Interrupted()) {
          interrupted_ = true;
          return std::nullopt;
        }
        continue;
      }
      if (line.empty()) return std::nullopt;
      return line;
    }
  }
  bool interactive() const override { return true; }
  bool interrupted() const override { return interrupted_; }

 private:
  bool interrupted_ = false;
};

// libedit: emacs key bindings (and ~/.editrc), history, Tab completion.
class EditLineSource : public LineSource {
 public:
  EditLineSource(const ShellVariables& variables, Completer completer)
      : variables_(variables), completer_(std::move(completer)) {
    UseUtf8Characters();
    el_ = el_init("caracal", stdin, stdout, stderr);
    history_ = history_init();
    HistEvent ev;
    history(history_, &ev, H_SETSIZE, std::max(variables_.histsize(), 0));
    file_ = HistoryFile(variables_);
    if (!file_.empty()) history(history_, &ev, H_LOAD, file_.c_str());
    el_set(el_, EL_EDITOR, "emacs");
    el_set(el_, EL_HIST, history, history_);
    el_set(el_, EL_SIGNAL, 1);
    el_set(el_, EL_GETCFN, &EditLineSource::ReadCharacter);
    el_set(el_, EL_CLIENTDATA, this);
    el_set(el_, EL_PROMPT, &EditLineSource::Prompt);
    el_set(el_, EL_ADDFN, "caracal-complete", "complete a word", &EditLineSource::Complete);
    el_set(el_, EL_BIND, "^I", "caracal-complete", nullptr);
    el_source(el_, nullptr);  // ~/.editrc
  }

  ~EditLineSource() override {
    Save();
    el_end(el_);
    history_end(history_);
  }

  std::optional<std::string> ReadLine(const std::string& prompt) override {
    prompt_ = prompt;
    interrupted_ = false;
    ClearInterrupt();
    int count = 0;
    const char* line = el_gets(el_, &count);
    if (Interrupted()) {
      interrupted_ = true;
      return std::nullopt;
    }
    if (!line || count <= 0) return std::nullopt;
    std::string s(line, static_cast<size_t>(count));
    if (!s.empty() && s.back() == '\n') s.pop_back();
    if (size_t nul = s.find('\0'); nul != std::string::npos) s.resize(nul);
    return s;
  }

  bool interactive() const override { return true; }
  bool interrupted() const override { return interrupted_; }

  void AddHistory(const std::string& entry) override {
    if (!Keep(entry, last_, variables_.histcontrol())) return;
    HistEvent ev;
    history(history_, &ev, H_SETSIZE, std::max(variables_.histsize(), 0));
    history(history_, &ev, H_ENTER, entry.c_str());
    last_ = entry;
    Save();  // at once, so that a crash or a kill loses nothing
  }

  std::vector<std::string> History() const override {
    std::vector<std::string> out;
    HistEvent ev;
    for (int r = history(history_, &ev, H_LAST); r == 0; r = history(history_, &ev, H_PREV)) out.emplace_back(ev.str);
    return out;
  }

 private:
  void Save() {
    if (file_.empty()) return;
    HistEvent ev;
    history(history_, &ev, H_SAVE, file_.c_str());
  }

  // libedit decodes keys and encodes the finished line with the C library's multibyte
  // functions, which follow LC_CTYPE; in the "C" locale every byte above 0x7f is dropped.
  // The shell's client encoding is UTF-8 (encoding.h), so the terminal is read as UTF-8:
  // the user's locale if it is a UTF-8 one, else C.UTF-8.
  static void UseUtf8Characters() {
    auto utf8 = [] { return std::string_view(nl_langinfo(CODESET)) == "UTF-8"; };
    if (std::setlocale(LC_CTYPE, "") && utf8()) return;
    std::setlocale(LC_CTYPE, "C.UTF-8");
  }

  // libedit's own reader blocks in read(): a Ctrl-C that comes while libedit is between
  // two reads (drawing the line) would be lost and the shell would wait in cooked mode
  // for a newline. This one waits with WaitForInput and fails (-1, which ends el_gets)
  // once Ctrl-C was pressed. Returns 1 with a character, 0 at the end of input.
  // libedit's signal handlers (EL_SIGNAL) uninstall themselves after one signal and its
  // reader reinstalls them; ours cannot, so it applies a window size change itself. A
  // second Ctrl-Z within one input line leaves the line editor in cooked mode until the
  // line ends.
  static int ReadCharacter(EditLine* el, wchar_t* out) {
    char bytes[MB_LEN_MAX];
    size_t count = 0;
    for (;;) {
      WaitResult wait = WaitForInput(STDIN_FILENO);
      if (wait == WaitResult::kInterrupted) {
        *out = L'\0';
        errno = EINTR;
        return -1;
      }
      if (wait == WaitResult::kOtherSignal) {
        el_resize(el);
        continue;
      }
      char byte;
      ssize_t n = read(STDIN_FILENO, &byte, 1);
      if (n == 0) return 0;
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        *out = L'\0';
        return -1;
      }
      bytes[count++] = byte;
      for (;;) {
        std::mbstate_t state{};
        size_t used = std::mbrtowc(out, bytes, count, &state);
        if (used == static_cast<size_t>(-2) && count < sizeof bytes) break;  // an incomplete sequence: read on
        if (used != static_cast<size_t>(-1) && used != static_cast<size_t>(-2)) return 1;
        // Not a character of the encoding: dropped, as libedit's reader does, except the
        // byte that broke the sequence, which may start the next character.
        if (count == 1) {
          count = 0;
          break;
        }
        bytes[0] = bytes[count - 1];
        count = 1;
      }
    }
  }

  static char* Prompt(EditLine* el) {
    void* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return const_cast<char*>(static_cast<EditLineSource*>(self)->prompt_.c_str());
  }

  static unsigned char Complete(EditLine* el, int) {
    void* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return static_cast<EditLineSource*>(self)->DoComplete();
  }

  // Completes the word before the cursor: the rest of a single candidate (and a space),
  // else the candidates' common prefix, else a listing of the candidates.
  unsigned char DoComplete() {
    const LineInfo* li = el_line(el_);
    std::string before(li->buffer, static_cast<size_t>(li->cursor - li->buffer));
    std::vector<std::string> candidates = completer_(before);
    size_t start = before.size();
    while (start > 0 && std::string_view(" \t\n@><=;|&(),").find(before[start - 1]) == std::string_view::npos) --start;
    std::string word = before.substr(start);
    if (candidates.empty()) return CC_ERROR;
    if (candidates.size() == 1) {
      std::string rest = candidates[0].substr(std::min(word.size(), candidates[0].size()));
      bool open = !candidates[0].empty() && (candidates[0].back() == '/' || candidates[0].back() == '(' ||
                                             candidates[0].back() == '.');
      if (!open) rest += ' ';
      el_insertstr(el_, rest.c_str());
      return CC_REFRESH;
    }
    std::string common = candidates[0];
    for (const std::string& c : candidates) {
      size_t i = 0;
      while (i < common.size() && i < c.size() && common[i] == c[i]) ++i;
      common.resize(i);
    }
    if (common.size() > word.size()) {
      el_insertstr(el_, common.substr(word.size()).c_str());
      return CC_REFRESH;
    }
    // Nothing to add: list the candidates in columns, as readline does.
    size_t width = 0;
    for (const std::string& c : candidates) width = std::max(width, c.size());
    width += 2;
    struct winsize ws {};
    size_t columns = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;
    size_t per_line = std::max<size_t>(1, columns / width);
    std::string listing = "\n";
    for (size_t i = 0; i < candidates.size(); ++i) {
      listing += candidates[i];
      if ((i + 1) % per_line == 0 || i + 1 == candidates.size()) listing += "\n";
      else listing += std::string(width - candidates[i].size(), ' ');
    }
    std::fputs(listing.c_str(), stdout);
    std::fflush(stdout);
    return CC_REDISPLAY;
  }

  const ShellVariables& variables_;
  Completer completer_;
  EditLine* el_ = nullptr;
  ::History* history_ = nullptr;
  std::string file_;
  std::string prompt_;
  std::string last_;
  bool interrupted_ = false;
};

}  // namespace

std::unique_ptr<LineSource> MakeLineEditor(const ShellVariables& variables, Completer completer, bool use_libedit) {
  if (!use_libedit) return std::make_unique<PlainTerminal>();
  return std::make_unique<EditLineSource>(variables, std::move(completer));
}

}  // namespace caracal::frontend
