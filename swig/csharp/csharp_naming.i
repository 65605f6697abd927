// C# binding: the naming rules (PascalCase) and renames.
// Part of the C# entry file csharp.i, which includes the parts in this order.

// --- naming ------------------------------------------------------------------------------
%rename("%(camelcase)s", %$isfunction) "";
%rename("%(camelcase)s", %$isclass) "";
%rename("%(camelcase)s", %$isenum) "";
%rename("%(camelcase)s", %$isenumitem) "";
%rename("%(camelcase)s", %$isconstant) "";
%rename("%(camelcase)s", %$isvariable) "";
%rename(MpiEnvironment) oompi::rt::environment;
// std_vector.i's C# classes (IntVector, ...) call these by their own names from their C# code.
%rename(capacity) std::vector::capacity;
%rename(size) std::vector::size;
%rename(reserve) std::vector::reserve;
%rename(getitem) std::vector::getitem;
%rename(getitemcopy) std::vector::getitemcopy;
%rename(setitem) std::vector::setitem;
// Offsets and counts live in the MpiBuffer (MpiBuffer.Of(array, offset, count)).
%ignore oompi::rt::comm::send_part;
%ignore oompi::rt::comm::recv_part;

// Buffers are pinned with `fixed` inside the generated methods.
%csmethodmodifiers "public unsafe";
%typemap(csclassmodifiers) SWIGTYPE "public unsafe partial class"
