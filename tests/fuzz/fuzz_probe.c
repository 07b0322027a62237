int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)
{
	(void)d;
	return (int)n & 0;
}
