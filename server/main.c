/*
 * main.c: the command line and the process limits, nothing else; the server
 * itself is a library (server.h) that the tests link too.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "base/conf.h"
#include "server.h"
#include "base/util.h"

/* One descriptor per connection: take every descriptor the hard limit allows. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			util_log(LOG_WARN, "cannot raise the open file limit: %s", strerror(errno));
	}
}

/*
 * The process's exit status for a code of config_parse() or server_run(),
 * the one place that maps them (the tests rely on these): 0 for a clean stop
 * and after --help, --version or --check-config's report; 2 for settings that
 * are wrong; 1 when the server could not start or did not stop cleanly.
 * A cluster node that lost its lease exits with SERVER_EXIT_FENCED (3) from
 * inside server_run() (server.h), not through here.
 */
static int exit_status(int err)
{
	if (!err || err == CONF_E_DONE)
		return 0;
	return err == CONF_E_INVALID ? 2 : 1;
}

int main(int argc, char **argv)
{
	static struct config cfg;
	int err;

	config_defaults(&cfg);
	err = config_parse(&cfg, argc, argv);
	if (err)
		return exit_status(err);
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	return exit_status(server_run(&cfg));
}
