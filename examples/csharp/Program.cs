using System;

// mpirun -np 4 dotnet OompiExamples.dll hello|ring|ping_pong [args]
return args.Length == 0 ? Usage() : args[0] switch
{
    "hello" => Examples.Hello.Run(),
    "ring" => Examples.Ring.Run(),
    "ping_pong" => Examples.PingPong.Run(args[1..]),
    _ => Usage(),
};

static int Usage()
{
    Console.Error.WriteLine("usage: dotnet OompiExamples.dll hello|ring|ping_pong [iterations] [bytes]");
    return 2;
}
