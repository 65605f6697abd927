// The namespaces nearly every test file here uses, once for the project (as .NET's implicit
// usings do); a file adds the others it needs (System.Threading, System.Reflection, ...).
global using System;
global using System.Collections.Generic;
global using System.Linq;
global using Xunit;
