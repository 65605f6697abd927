using System;

// mpirun -np 4 dotnet OompiExamples.dll hello|ring|round_robin|round_robin_low|ping_pong [args]
return args.Length == 0 ? Usage() : args[0] switch
{
    "hello" => Examples.Hello.Run(),
    "ring" => Examples.Ring.Run(),
    "round_robin_low" => Examples.RoundRobin.Run(lowLevel: true),   // seed 002, Fig. 3
    "round_robin" => Examples.RoundRobin.Run(lowLevel: false),      // seed 002, Fig. 4
    "ping_pong" => Examples.PingPong.Run(args[1..]),
    _ => Usage(),
};

static int Usage()
{
    Console.Error.WriteLine("usage: dotnet OompiExamples.dll hello|ring|round_robin|round_robin_low|ping_pong [iterations] [bytes]");
    return 2;
}
