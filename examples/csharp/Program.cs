using System;

// mpirun -np 4 dotnet OompiExamples.dll hello|ring|round_robin|round_robin_low|ping_pong|linked_array [args]
return args.Length == 0 ? Usage() : args[0] switch
{
    "hello" => Examples.Hello.Run(),
    "ring" => Examples.Ring.Run(),
    "round_robin_low" => Examples.RoundRobin.Run(lowLevel: true),   // seed 002, Fig. 3
    "round_robin" => Examples.RoundRobin.Run(lowLevel: false),      // seed 002, Fig. 4
    "ping_pong" => Examples.PingPong.Run(args[1..]),
    "linked_array" => Examples.LinkedArrayExample.Run(),                // seed 004, Figs. 4-5
    _ => Usage(),
};

static int Usage()
{
    Console.Error.WriteLine("usage: dotnet OompiExamples.dll hello|ring|round_robin|round_robin_low|ping_pong [iterations] [bytes]|linked_array");
    return 2;
}
