// Keeps caracal_codegen a valid library until its first real source lands.
namespace caracal::codegen {}
