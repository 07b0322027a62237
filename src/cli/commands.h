/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h - the `gearbox` subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit status:
 *   0 success, 1 failure of the job itself, 2 bad usage or bad input (nothing written).
 * Each subcommand lives with its subsystem (cmd_sim in src/sim/, cmd_top in tui/, ...).
 */
#ifndef GEARBOX_COMMANDS_H
#define GEARBOX_COMMANDS_H

#define GB_EXIT_OK    0
#define GB_EXIT_FAIL  1
#define GB_EXIT_USAGE 2

int cmd_em(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_check(int argc, char **argv);

#endif
