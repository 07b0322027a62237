// SPDX-License-Identifier: GPL-2.0-only
/*
 * ui.c - the event loop of `gearbox top`.
 *
 * One poll() waits for the keyboard, the source's fd and the earliest of three deadlines:
 * the next redraw, the next replay record, the next reconnect attempt.  Nothing spins: with a
 * paused replay or a quiet socket the process sleeps until a key or data arrives.  Redraws
 * happen at most refresh_hz times a second and only when something changed (model
 * generation, a key, a resize, or a running replay clock), and ncurses sends only the
 * difference, which is what keeps the 4 Hz default cheap.
 *
 * Terminal restoration: endwin() runs on q and on SIGINT/SIGTERM/SIGHUP (the handler only sets a
 * flag; the loop notices because poll() returns EINTR).  A crash (SIGSEGV/SIGBUS/SIGFPE/
 * SIGABRT/SIGILL) cannot return to the loop, and endwin() is not async-signal-safe (it may
 * need the malloc or stdio lock the crashing code holds), so that handler only does what is:
 * write(2) of the terminal's own "leave the screen" sequences (rmcup, cnorm, rmkx, sgr0, taken
 * from terminfo when curses starts) and tcsetattr(3) back to the modes saved before curses
 * started.  It then re-raises with the previous handler, so sanitizers and core dumps still
 * see the crash.  SIGWINCH is left to ncurses, which turns it into KEY_RESIZE.
 */
#include "ui.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "draw.h"

/*
 * Signal state is the one global state here: a handler can reach nothing else.
 */
static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t curses_active;
static struct termios saved_tty; /* the terminal's modes before curses started */
static char restore_seq[256];	 /* what endwin() would send; written as bytes */
static size_t restore_len;
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL};
static struct sigaction fatal_old[sizeof(fatal_signals) / sizeof(fatal_signals[0])];
static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction quit_old[sizeof(quit_signals) / sizeof(quit_signals[0])];

#define NR_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
#define NR_QUIT	 (sizeof(quit_signals) / sizeof(quit_signals[0]))

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

static void on_fatal_signal(int sig)
{
	if (curses_active) {
		ssize_t w;

		curses_active = 0;
		w = write(STDOUT_FILENO, restore_seq, restore_len);
		(void)w; /* nothing more can be done about a terminal that is gone */
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	}
	for (size_t i = 0; i < NR_FATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &fatal_old[i], NULL);
	raise(sig); /* delivered on return; a hardware fault also simply recurs */
}

static void install_signals(void)
{
	struct sigaction sa = {0};

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;
	for (size_t i = 0; i < NR_QUIT; i++)
		sigaction(quit_signals[i], &sa, &quit_old[i]);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_NODEFER;
	for (size_t i = 0; i < NR_FATAL; i++)
		sigaction(fatal_signals[i], &sa, &fatal_old[i]);
}

static void restore_signals(void)
{
	for (size_t i = 0; i < NR_QUIT; i++)
		sigaction(quit_signals[i], &quit_old[i], NULL);
	for (size_t i = 0; i < NR_FATAL; i++)
		sigaction(fatal_signals[i], &fatal_old[i], NULL);
}

static int64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct ui {
	struct top_view v;
	struct top_model *m;
	struct top_source src;
	int count[VIEW_COUNT]; /* rows each view had at the last draw, to bound scrolling */
	bool dirty;
	bool quit;
};

static void draw_small(int rows, int cols)
{
	mvprintw(0, 0, "gearbox top needs at least %dx%d; this terminal is %dx%d.", TOP_MIN_COLS,
		 TOP_MIN_ROWS, cols, rows);
	mvprintw(1, 0, "Enlarge it, or press q to quit.");
}

static void draw_screen(struct ui *u)
{
	const struct top_model *m = u->m;
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	erase();
	if (rows < TOP_MIN_ROWS || cols < TOP_MIN_COLS) {
		draw_small(rows, cols);
		refresh();
		return;
	}
	struct area head = {0, 0, 2, cols};
	struct area body = {2, 0, rows - 4, cols};
	struct area status = {rows - 2, 0, 2, cols};

	panel_header_draw(&u->v, m, head);
	switch (u->v.view) {
	case VIEW_DOMAINS: {
		int log_min = 5;
		int dh = panel_domains_rows(m, cols, body.h - log_min);
		struct area dom = {body.y, 0, dh, cols};
		struct area log = {body.y + dh + 1, 0, body.h - dh - 1, cols};
		panel_domains_draw(&u->v, m, dom, u->v.scroll[VIEW_DOMAINS]);
		u->count[VIEW_DOMAINS] = m->topo.nr_domains;
		panel_decisions_draw(&u->v, m, log, 0, false);
		break;
	}
	case VIEW_DECISIONS:
		u->count[VIEW_DECISIONS] =
		    panel_decisions_draw(&u->v, m, body, u->v.scroll[VIEW_DECISIONS], true);
		break;
	case VIEW_TASKS:
		u->count[VIEW_TASKS] = panel_tasks_draw(&u->v, m, body, u->v.scroll[VIEW_TASKS]);
		break;
	case VIEW_COUNT:
		break;
	}
	panel_status_draw(&u->v, m, status);
	if (u->v.help)
		panel_help_draw(&u->v, body);
	refresh();
}

static void scroll_by(struct ui *u, int delta)
{
	int *s = &u->v.scroll[u->v.view];
	int max = u->count[u->v.view] - 1;

	*s += delta;
	if (*s > max)
		*s = max;
	if (*s < 0)
		*s = 0;
}

static void filter_key(struct ui *u, int ch)
{
	size_t n = strlen(u->v.edit);

	if (ch == 27) {
		u->v.editing = false;
		u->v.filter[0] = '\0';
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		u->v.editing = false;
		memcpy(u->v.filter, u->v.edit, sizeof(u->v.filter));
		memset(u->v.scroll, 0, sizeof(u->v.scroll));
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			u->v.edit[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof(u->v.edit)) {
		u->v.edit[n] = (char)ch;
		u->v.edit[n + 1] = '\0';
	}
}

static void change_refresh(struct ui *u, double factor)
{
	double hz = u->v.refresh_hz * factor;

	u->v.refresh_hz = hz < 0.5 ? 0.5 : hz > 32 ? 32 : hz;
}

static void change_speed(struct ui *u, double factor, int64_t now)
{
	double sp = u->src.speed;

	if (sp == SOURCE_SPEED_MAX)
		sp = factor > 1 ? SOURCE_SPEED_MAX : 64;
	else
		sp = sp * factor < 1.0 / 64 ? 1.0 / 64 : sp * factor > 1024 ? 1024 : sp * factor;
	source_set_speed(&u->src, sp, now);
}

/* htop's sort keys: they also show the task view, where the order is seen. */
static void set_sort(struct ui *u, enum model_sort key)
{
	u->v.sort = key;
	u->v.view = VIEW_TASKS;
	u->v.scroll[VIEW_TASKS] = 0;
}

static void handle_key(struct ui *u, int ch, int64_t now)
{
	bool replay = u->src.kind == SOURCE_REPLAY;

	u->dirty = true;
	if (u->v.editing) {
		filter_key(u, ch);
		return;
	}
	if (u->v.help && ch != KEY_RESIZE) {
		u->v.help = false; /* any key closes help; q closes it too rather than quitting */
		return;
	}
	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		u->quit = true;
		break;
	case 'p':
	case 'P':
		if (replay)
			source_set_paused(&u->src, !u->src.paused, now);
		else
			u->v.frozen = !u->v.frozen;
		break;
	case ' ':
		source_step(&u->src, now);
		break;
	case '+':
	case '=':
		if (replay)
			change_speed(u, 2, now);
		else
			change_refresh(u, 2);
		break;
	case '-':
	case '_':
		if (replay)
			change_speed(u, 0.5, now);
		else
			change_refresh(u, 0.5);
		break;
	case ']':
		change_refresh(u, 2);
		break;
	case '[':
		change_refresh(u, 0.5);
		break;
	case '\t':
		u->v.view = (u->v.view + 1) % VIEW_COUNT;
		break;
	case KEY_BTAB:
		u->v.view = (u->v.view + VIEW_COUNT - 1) % VIEW_COUNT;
		break;
	case '1':
	case '2':
	case '3':
		u->v.view = (enum top_view_id)(ch - '1');
		break;
	case '/':
	case KEY_F(3):
	case KEY_F(4): /* htop's search and filter keys */
		u->v.editing = true;
		memcpy(u->v.edit, u->v.filter, sizeof(u->v.edit));
		break;
	case 27:
		u->v.filter[0] = '\0';
		break;
	case '<':
	case ',':
		set_sort(u, (u->v.sort + SORT_COUNT - 1) % SORT_COUNT);
		break;
	case '>':
	case '.':
	case KEY_F(6):
		set_sort(u, (u->v.sort + 1) % SORT_COUNT);
		break;
	case 'U':
		set_sort(u, SORT_UTIL);
		break;
	case 'M':
		set_sort(u, SORT_MIGRATIONS);
		break;
	case 'D':
		set_sort(u, SORT_DOMAIN);
		break;
	case 'N':
		set_sort(u, SORT_NAME);
		break;
	case 'I':
		u->v.sort_reverse = !u->v.sort_reverse;
		u->v.view = VIEW_TASKS;
		break;
	case '?':
	case 'h':
	case KEY_F(1):
		u->v.help = true;
		break;
	case KEY_UP:
		scroll_by(u, -1);
		break;
	case KEY_DOWN:
		scroll_by(u, 1);
		break;
	case KEY_PPAGE:
		scroll_by(u, -(LINES - 6));
		break;
	case KEY_NPAGE:
		scroll_by(u, LINES - 6);
		break;
	case KEY_HOME:
		u->v.scroll[u->v.view] = 0;
		break;
	case KEY_END:
		scroll_by(u, 1 << 30);
		break;
	case KEY_RESIZE:
		break;
	default:
		u->dirty = false;
		break;
	}
}

/* The sequences endwin() sends to leave curses mode, for the crash handler (which must not
 * call into curses): the normal screen, a visible cursor, keypad off, no attributes. */
static void save_restore_seq(void)
{
	static const char *const caps[] = {"sgr0", "cnorm", "rmkx", "rmcup"};

	restore_len = 0;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		const char *s = tigetstr(caps[i]);
		size_t n;

		if (!s || s == (char *)-1)
			continue;
		n = strlen(s);
		if (n >= sizeof(restore_seq) - restore_len)
			break;
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

static bool curses_start(struct ui *u, const struct top_options *o, struct gb_err *err)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		gb_err_set(err, ENOTTY,
			   "needs a terminal (stdin and stdout); for a trace without one use "
			   "'gearbox sim' reports");
		return false;
	}
	setlocale(LC_ALL, "");
	if (tcgetattr(STDIN_FILENO, &saved_tty)) {
		gb_err_set(err, errno, "stdin: %s", strerror(errno));
		return false;
	}
	if (!newterm(NULL, stdout, stdin)) {
		gb_err_set(err, ENOTTY, "cannot use terminal type '%s'",
			   getenv("TERM") ? getenv("TERM") : "(unset)");
		return false;
	}
	save_restore_seq();
	curses_active = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	u->v.color = draw_init_colors(o->color);
	u->v.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	return true;
}

static void curses_stop(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

/* Whether the screen would look different if drawn now. */
static bool wants_draw(const struct ui *u, uint64_t drawn_gen)
{
	if (u->dirty)
		return true;
	if (u->v.frozen)
		return false;
	if (u->m->generation != drawn_gen)
		return true;
	/* A running replay's clock is on screen. */
	return u->src.kind == SOURCE_REPLAY && !u->src.paused && !u->src.eof;
}

static int loop(struct ui *u)
{
	uint64_t drawn_gen = ~0ull;
	int64_t now = mono_us(), next_draw = now;

	while (!u->quit && !quit_signal) {
		source_pump(&u->src, u->m, now);
		now = mono_us();
		bool want = wants_draw(u, drawn_gen);
		if (want && now >= next_draw) {
			u->v.now_us = now;
			draw_screen(u);
			drawn_gen = u->m->generation;
			u->dirty = false;
			next_draw = now + (int64_t)(1e6 / u->v.refresh_hz);
			want = wants_draw(u, drawn_gen);
		}

		/*
		 * With a redraw pending, records that arrive or fall due before it would not be
		 * seen anyway: sleep until the redraw and take them all then.  A 100 Hz trace
		 * thus costs refresh_hz wake-ups a second, not one per record.  Only a source
		 * with work left right now (wait 0: a pump budget ran out) is served sooner.
		 */
		int64_t wait = source_wait_us(&u->src, now);
		int sfd = source_poll_fd(&u->src);
		if (want) {
			int64_t d = next_draw > now ? next_draw - now : 0;
			if (wait != 0)
				wait = d;
			sfd = -1;
		}
		if (wait < 0 || wait > 1000000)
			wait = 1000000; /* a safety net, not a tick: nothing depends on it */

		struct pollfd pfd[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
					{.fd = sfd, .events = POLLIN}};
		poll(pfd, pfd[1].fd >= 0 ? 2 : 1, (int)((wait + 999) / 1000));

		now = mono_us();
		int ch;
		while ((ch = getch()) != ERR)
			handle_key(u, ch, now);
	}
	return quit_signal ? 128 + quit_signal : 0;
}

int ui_run(const struct top_options *o, struct gb_err *err)
{
	struct ui *u = calloc(1, sizeof(*u));
	int ret;

	if (!u || !(u->m = malloc(sizeof(*u->m)))) {
		free(u);
		return gb_err_set(err, ENOMEM, "out of memory");
	}
	model_init(u->m);
	u->v.refresh_hz = o->refresh_hz;
	if (o->replay)
		ret = source_open_replay(&u->src, o->replay, o->speed, o->paused, err);
	else
		ret = source_open_socket(&u->src, o->socket, err);
	if (ret)
		goto out;
	if (o->record && (ret = source_record(&u->src, o->record, err))) {
		source_close(&u->src);
		goto out;
	}
	u->v.src = &u->src;

	quit_signal = 0;
	install_signals();
	if (!curses_start(u, o, err)) {
		ret = -ENOTTY;
	} else {
		ret = loop(u);
		curses_stop();
	}
	restore_signals();
	source_close(&u->src);
out:
	free(u->m);
	free(u);
	return ret;
}
