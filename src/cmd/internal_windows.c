/* The hidden modes `check` starts torchdoctor.exe in, as its own child
 * (probe/system/child.h): `__gpu` asks the NVIDIA driver, `__replay` replays
 * torch's DLL loading. Not for users; not in --help. */
#include "cmd/cmd.h"
#include "probe/system/child.h"

int td_cmd_gpu_child(int argc, char **argv)
{
    (void)argc, (void)argv;
    return td_gpu_child();
}

int td_cmd_replay_child(int argc, char **argv)
{
    (void)argc, (void)argv;
    return td_replay_child();
}
