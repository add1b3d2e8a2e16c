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

int main(int argc, char **argv)
{
	static struct config cfg;
	int r;

	config_defaults(&cfg);
	r = config_parse(&cfg, argc, argv);
	if (r)
		return r > 0 ? 0 : 2;
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	return server_run(&cfg);
}
